/// The classroom page's style: large type and strong contrast for a
/// projector, light and dark themes, a layout that holds from 1024×768 to 4K,
/// and a zoom (`--zoom`) that grows the content while the controls keep their size.
enum PageStyle {
    static let css = #"""
:root {
  --zoom: 1;
  --base: clamp(15px, 0.55vw + 9px, 30px);
  --bg: #ffffff; --fg: #111111; --muted: #4a4a4a; --panel: #f3f4f6; --line: #c7ccd4;
  --accent: #1d4ed8; --accent-fg: #ffffff; --added: #d1fadf; --added-fg: #05603a; --removed: #fee4e2; --removed-fg: #912018;
  --selected: #dbe5ff; --warn: #fff4cc;
  --lane-view: #7c3aed; --lane-viewmodel: #1d4ed8; --lane-datacontroller: #0f766e; --lane-request: #b45309;
  --lane-model: #be185d; --lane-server: #374151;
  color-scheme: light;
}
:root[data-theme="dark"] {
  --bg: #0b0d12; --fg: #f4f5f7; --muted: #b8bec9; --panel: #161a22; --line: #3a4150;
  --accent: #8ab4ff; --accent-fg: #0b0d12; --added: #0d3b26; --added-fg: #9ff0c5; --removed: #4a1512; --removed-fg: #ffb4ab;
  --selected: #1f2d4d; --warn: #3d3410;
  --lane-view: #c4a7ff; --lane-viewmodel: #8ab4ff; --lane-datacontroller: #5eead4; --lane-request: #fbbf24;
  --lane-model: #f9a8d4; --lane-server: #cbd5e1;
  color-scheme: dark;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { background: var(--bg); color: var(--fg); font: 16px/1.4 system-ui, "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif; }
button { font: inherit; font-size: 16px; padding: 6px 12px; border-radius: 6px; border: 2px solid var(--accent);
  background: var(--bg); color: var(--accent); cursor: pointer; min-height: 40px; }
button:hover, button:focus-visible { background: var(--accent); color: var(--accent-fg); outline: none; }
button.primary { background: var(--accent); color: var(--accent-fg); }
[hidden] { display: none !important; }
#bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 10px;
  padding: 8px 16px; background: var(--panel); border-bottom: 2px solid var(--line); font-size: 16px; }
#bar h1 { margin: 0; font-size: 22px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40vw; }
#bar .brand { color: var(--accent); }
.spacer { flex: 1; }
.pill { padding: 2px 10px; border-radius: 999px; border: 2px solid var(--line); font-size: 14px; white-space: nowrap; }
.pill.live { border-color: var(--added-fg); color: var(--added-fg); }
.pill.down { border-color: var(--removed-fg); color: var(--removed-fg); }
#presenter, .zoom { display: inline-flex; gap: 6px; }
#content { font-size: calc(var(--base) * var(--zoom)); display: grid; gap: 16px; padding: 16px;
  grid-template-columns: minmax(11em, 16em) minmax(0, 1fr);
  grid-template-areas: "timeline command" "timeline model"; align-items: start; }
@media (min-width: 1500px) {
  #content { grid-template-columns: minmax(11em, 15em) minmax(0, 1.6fr) minmax(18em, 1fr); grid-template-areas: "timeline command model"; }
}
#timeline-panel { grid-area: timeline; position: sticky; top: 72px; max-height: calc(100vh - 90px); overflow: auto; min-width: 0; }
#command-panel { grid-area: command; min-width: 0; }
#model-panel { grid-area: model; min-width: 0; }
h2 { font-size: 1.15em; margin: 0.2em 0 0.5em; }
h3 { font-size: 1em; margin: 1em 0 0.4em; color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; }
.note { color: var(--muted); margin: 0.2em 0; overflow-wrap: anywhere; }
#timeline { list-style: none; margin: 0; padding: 0; }
#timeline li { padding: 0.35em 0.5em; border-left: 5px solid transparent; border-bottom: 1px solid var(--line);
  cursor: pointer; overflow-wrap: anywhere; font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.85em; }
#timeline li:hover { background: var(--panel); }
#timeline li.selected { background: var(--selected); border-left-color: var(--accent); }
#timeline li.failed { border-left-color: var(--removed-fg); }
#timeline li .where { display: block; color: var(--muted); font-family: system-ui, sans-serif; font-size: 0.8em; }
#command-title { font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 1.3em; overflow-wrap: anywhere; }
#command-title .prompt { color: var(--accent); }
#lesson { border: 2px solid var(--accent); border-radius: 8px; padding: 0.5em 0.8em; margin-bottom: 0.8em; }
#narration p { margin: 0.2em 0; font-size: 1.1em; overflow-wrap: anywhere; }
#lesson-next { font-family: "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
#lanes { display: grid; grid-template-columns: repeat(6, minmax(0, 1fr)); border: 2px solid var(--line); border-radius: 8px;
  overflow: hidden; font-size: 0.8em; }
#lanes .lane-head { font-weight: 700; padding: 0.4em; text-align: center; background: var(--panel); border-bottom: 2px solid var(--line);
  overflow-wrap: anywhere; }
#lanes .cell { min-height: 1.6em; border-left: 1px dashed var(--line); min-width: 0; }
#lanes .cell:nth-child(6n+1) { border-left: none; }
#lanes .ev { margin: 0.25em; padding: 0.3em 0.45em; border-radius: 6px; border: 2px solid currentColor; background: var(--bg);
  overflow-wrap: break-word; word-break: break-word; min-width: 0; }
#lanes .ev .what { font-weight: 700; display: block; }
#lanes .ev .ms { color: var(--muted); font-size: 0.85em; }
#lanes .step-head { grid-column: 1 / -1; padding: 0.3em 0.6em; background: var(--panel); border-top: 2px solid var(--line);
  font-family: "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
#lanes .step-end { grid-column: 1 / -1; padding: 0.2em 0.6em; color: var(--muted); overflow-wrap: anywhere; }
#lanes .step-end.failed { color: var(--removed-fg); font-weight: 700; }
.lane-View { color: var(--lane-view); } .lane-ViewModel { color: var(--lane-viewmodel); }
.lane-DataController { color: var(--lane-datacontroller); } .lane-Request { color: var(--lane-request); }
.lane-Model { color: var(--lane-model); } .lane-Server { color: var(--lane-server); }
#lanes .ev .detail { color: var(--fg); }
pre, .screen { font-family: "DejaVu Sans Mono", "Noto Sans Mono", "Noto Sans Mono CJK SC", monospace; font-size: 0.8em;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; padding: 0.6em; background: var(--panel); border-radius: 8px;
  border: 1px solid var(--line); max-height: 60vh; overflow: auto; }
#views .view-name { font-weight: 700; color: var(--lane-view); margin: 0.4em 0 0.2em; overflow-wrap: anywhere; }
#output .err { color: var(--removed-fg); }
#state-diff .change { padding: 0.15em 0.5em; border-radius: 4px; margin: 0.15em 0; overflow-wrap: anywhere; }
#state-diff .added { background: var(--added); color: var(--added-fg); }
#state-diff .removed { background: var(--removed); color: var(--removed-fg); }
#state-diff .changed { background: var(--warn); }
#state { font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.8em; background: var(--panel);
  border: 1px solid var(--line); border-radius: 8px; padding: 0.5em; max-height: 55vh; overflow: auto; }
#state .key { color: var(--muted); }
#state .row { padding: 0 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
#state .row.new { background: var(--added); color: var(--added-fg); font-weight: 700; }
#state .row.muted { text-decoration: line-through; color: var(--muted); }
#state .field { overflow-wrap: anywhere; }
#state .field.new { background: var(--added); color: var(--added-fg); }
#history { margin: 0; padding-left: 2.2em; font-family: "DejaVu Sans Mono", monospace; font-size: 0.8em; }
#history li { padding: 0.15em 0.3em; overflow-wrap: anywhere; }
#history li.undone { color: var(--muted); text-decoration: line-through; }
#history li.current { outline: 3px solid var(--accent); border-radius: 4px; }
#history li .remote { color: var(--lane-request); display: block; font-size: 0.9em; }
#history-position { font-weight: 700; color: var(--fg); }
"""#
}
