"use strict";
(function () {
  const settings = JSON.parse(document.getElementById("wsh-settings").textContent);
  // The lifelines of the sequence diagram, left to right: what the user sees, then down the layers to the network.
  // The same order as `trace diagram` (TraceDiagram.Layer); Server only where the sandbox answered.
  const LIFELINES = ["Shell", "View", "ViewModel", "DataController", "Model", "Request", "Server"];
  const MAX_EVENTS = 8000;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };

  // --- the model: events by id, lines by number ---
  const seen = new Set();
  let events = [];
  const lines = new Map();          // number -> line record
  let selected = null;              // the selected line's number
  let following = true;             // select each new line as it comes
  let oldestAvailable = null;       // the oldest id the server still keeps
  let lessonStop = null;
  let branch = null;                // the last `branch` event: the session the lines belong to
  let dirty = false;
  // `#step-N` opens line N (live or saved); the page goes on following only when it is the newest.
  const stepInHash = () => { const m = /^#step-(\d+)$/.exec(location.hash); return m ? Number(m[1]) : null; };
  let wanted = stepInHash();
  if (wanted !== null) following = false;

  function lineRecord(number) {
    let line = lines.get(number);
    if (!line) {
      line = { number, text: null, location: "", at: "", steps: [], outputs: [], views: [],
               state: null, diff: null, history: null, before: null, status: null, ms: null, lesson: null, firstID: Infinity };
      lines.set(number, line);
    }
    return line;
  }

  function step(line, index) {
    while (line.steps.length <= index) line.steps.push({ command: "", input: null, layers: [] });
    return line.steps[index];
  }

  function apply(event) {
    if (event.type === "branch") {
      // A fresh session replayed the commands up to a step (the teacher's "Replay from here"): its lines
      // start again from 0, and every page follows them.
      lines.clear();
      resetDocuments();
      lessonStop = null;
      branch = event;
      following = true;
      wanted = null;
      return;
    }
    if (typeof event.line !== "number") {
      if (event.type === "lesson") lessonStop = event;
      return;
    }
    const line = lineRecord(event.line);
    line.firstID = Math.min(line.firstID, event.id);
    switch (event.type) {
      case "line": line.text = event.text; line.location = event.location; line.at = event.at; line.lesson = event.lesson || null; break;
      case "input": { const s = step(line, event.step); s.command = event.command; s.input = event.input; break; }
      case "layer": step(line, event.step).layers.push(event); break;
      case "view": line.views.push(event); break;
      case "output": line.outputs.push(event); break;
      case "snapshot": applySnapshot(line, event); break;
      case "state": applyState(line, event); break;
      case "history": applyHistory(line, event); break;
      case "done": line.status = event.status; line.ms = event.ms; line.endedAt = event.t; break;
      case "lesson": lessonStop = event; break;
    }
  }

  // --- the state and the history: whole in a snapshot, then what each line changed (WebView's doc comment) ---
  // Applied in id order, each state and history a new object (a line keeps the one it left), so any line shows
  // as it was. A change that comes with no state or history to apply it to (never, from a window that starts
  // at a snapshot) leaves it unknown until the next snapshot.
  let documents = { state: null, history: null };

  function resetDocuments() { documents = { state: null, history: null }; }

  function applySnapshot(line, event) {
    documents = { state: event.state || null, history: event.history || null };
    line.before = documents;
  }

  function applyState(line, event) {
    let state = null;
    if (event.state) state = event.state;
    else if (event.patch && documents.state) state = Object.assign({}, documents.state, event.patch);
    documents = { state, history: documents.history };
    line.state = state;
    line.diff = event.diff;
  }

  function applyHistory(line, event) {
    let operations = null;
    if (event.operations) operations = event.operations;
    else if (documents.history) {
      operations = documents.history.operations.slice(event.drop, event.drop + event.keep).concat(event.add || []);
    }
    const history = operations ? { operations, position: event.position } : null;
    documents = { state: documents.state, history };
    line.history = history;
  }

  /// Where the page's window may start when it trims: the first snapshot at or after `index`, else -1.
  function snapshotFrom(index) {
    for (let i = Math.max(0, index); i < events.length; i++) if (events[i].type === "snapshot") return i;
    return -1;
  }

  /// The line to select while following: the newest; in a saved lesson, the newest that ran to its end
  /// (the `web save` that wrote the file was still running when it did).
  function followedLine() {
    if (settings.role !== "saved") return newestLine();
    let ran = null;
    for (const [number, line] of lines) if (line.status !== null && (ran === null || number > ran)) ran = number;
    return ran === null ? newestLine() : ran;
  }

  /// Adds events from the stream or the server's window. The usual case, events newer than any held,
  /// is applied one by one; older ones (loaded on demand) or a window grown past its size rebuild the lines.
  function add(list) {
    const fresh = [];
    for (const event of list) {
      if (!event || typeof event.id !== "number" || seen.has(event.id)) continue;
      seen.add(event.id);
      fresh.push(event);
    }
    if (!fresh.length) return;
    fresh.sort((a, b) => a.id - b.id);
    const newest = events.length ? events[events.length - 1].id : 0;
    events.push(...fresh);
    if (fresh[0].id < newest) {
      events.sort((a, b) => a.id - b.id);
      rebuild();
      return;
    }
    const cut = events.length > MAX_EVENTS + 1000 && following ? snapshotFrom(events.length - MAX_EVENTS) : -1;
    if (cut > 0) {
      // The page keeps a window (trimmed in batches, from a snapshot on); older events come back with "load earlier commands".
      const dropped = events.splice(0, cut);
      for (const event of dropped) seen.delete(event.id);
      rebuild();
      return;
    }
    for (const event of fresh) apply(event);
    if (following) selected = followedLine();
    seekWanted();
    schedule();
  }

  function newestLine() {
    let newest = null;
    for (const number of lines.keys()) if (newest === null || number > newest) newest = number;
    return newest;
  }

  function rebuild() {
    lines.clear();
    lessonStop = null;
    branch = null;
    resetDocuments();
    for (const event of events) apply(event);
    if (following || selected === null || !lines.has(selected)) selected = followedLine();
    seekWanted();
    schedule();
  }

  /// The step the address asked for, once the page holds it.
  function seekWanted() {
    if (wanted === null || !lines.has(wanted)) return;
    selected = wanted;
    following = wanted === newestLine();
    wanted = null;
  }

  function schedule() {
    if (dirty) return;
    dirty = true;
    requestAnimationFrame(() => { dirty = false; render(); });
  }

  // --- rendering ---
  function render() {
    renderTimeline();
    renderSteps();
    renderLesson();
    const line = selected === null ? null : lines.get(selected);
    renderCommand(line);
    renderState(line);
    renderHistory(line);
    $("follow").classList.toggle("primary", !following);
    document.body.dataset.lines = String(lines.size);
    document.body.dataset.selected = selected === null ? "" : String(selected);
  }

  // The timeline's items stay in place (keyed by line), so a page that follows a long session redraws only what changed.
  const items = new Map();
  function renderTimeline() {
    const list = $("timeline");
    const numbers = [...lines.keys()].sort((a, b) => a - b);
    for (const [number, item] of items) if (!lines.has(number)) { item.remove(); items.delete(number); }
    let previous = null;
    for (const number of numbers) {
      const line = lines.get(number);
      let item = items.get(number);
      if (!item) {
        item = el("li", "line");
        item.dataset.line = String(number);
        item.tabIndex = 0;
        item.addEventListener("click", () => choose(number));
        item.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(number); });
        items.set(number, item);
      }
      const text = line.text === null ? (number === 0 ? "(session start)" : "(earlier)") : line.text;
      const when = number === 0 ? "before the first command"
        : line.ms !== null ? line.ms.toFixed(1) + " ms" : settings.role === "saved" ? "saved here: still running" : "running…";
      const where = [line.location, line.at, when].filter(Boolean).join(" · ");
      const signature = text + "\u0000" + where;
      if (item.dataset.signature !== signature) {
        item.textContent = text;
        item.appendChild(el("span", "where", where));
        item.dataset.signature = signature;
        item.dataset.done = String(line.ms !== null);
      }
      item.classList.toggle("selected", number === selected);
      item.classList.toggle("failed", line.status !== null && line.status !== 0);
      const expected = previous ? previous.nextSibling : list.firstChild;
      if (expected !== item) list.insertBefore(item, expected);
      previous = item;
    }
    const first = events.length ? events[0].id : null;
    const more = settings.role !== "saved" && first !== null && oldestAvailable !== null && first > oldestAvailable;
    $("older").hidden = !more;
    const gap = first !== null && first > 1 && (oldestAvailable === null || first <= oldestAvailable);
    $("gap").hidden = !gap || settings.role === "saved";
    $("gap").textContent = gap ? "Earlier commands are no longer kept." : "";
    const chosen = list.querySelector("li.selected");
    if (chosen && following) chosen.scrollIntoView({ block: "nearest" });
  }

  // --- the steps: ← and →, the slider, the address of each, and "replay from here" ---
  function stepNumbers() { return [...lines.keys()].sort((a, b) => a - b); }

  function renderSteps() {
    const numbers = stepNumbers();
    const scrub = $("scrub");
    scrub.min = String(numbers.length ? numbers[0] : 0);
    scrub.max = String(numbers.length ? numbers[numbers.length - 1] : 0);
    scrub.disabled = numbers.length < 2;
    if (selected !== null && document.activeElement !== scrub) scrub.value = String(selected);
    const at = numbers.indexOf(selected);
    $("step-back").disabled = at <= 0;
    $("step-next").disabled = at < 0 || at >= numbers.length - 1;
    $("step-where").textContent = selected === null ? "" : "step " + selected + " of " + (numbers.length ? numbers[numbers.length - 1] : 0);
    const address = selected === null ? "" : "#step-" + selected;
    if (selected !== null && location.hash !== address && wanted === null) history.replaceState(null, "", address);
    const replay = $("replay");
    replay.hidden = !(settings.role === "teacher" && settings.controlKey);
    const line = selected === null ? null : lines.get(selected);
    const reason = settings.replay ? settings.replay
      : !line || selected < 1 ? "choose a command to replay up to"
      : line.status === null ? "this command has not ended yet" : "";
    replay.disabled = reason !== "";
    replay.title = reason || "A fresh session runs steps 1–" + selected + " again: the class takes the other branch";
    const note = $("branch");
    note.hidden = !branch;
    note.textContent = branch ? "Branch " + branch.branch + ": a fresh session replayed steps 1–" + branch.from + " of the one before"
      + (branch.commands && branch.commands.length ? " (" + branch.commands.join("; ") + ")" : "") : "";
  }

  /// Moves the selection `by` steps (−1 or +1) from the one shown.
  function stepBy(by) {
    const numbers = stepNumbers();
    const at = numbers.indexOf(selected);
    const next = numbers[Math.min(numbers.length - 1, Math.max(0, at + by))];
    if (next !== undefined) choose(next);
  }

  $("step-back").addEventListener("click", () => stepBy(-1));
  $("step-next").addEventListener("click", () => stepBy(1));
  $("scrub").addEventListener("input", () => {
    const value = Number($("scrub").value);
    // The nearest step held (a window may have gaps).
    const numbers = stepNumbers();
    let best = numbers[0];
    for (const n of numbers) if (Math.abs(n - value) < Math.abs(best - value)) best = n;
    if (best !== undefined) choose(best);
  });
  addEventListener("hashchange", () => {
    const step = stepInHash();
    if (step === null || step === selected) return;
    wanted = step;
    following = false;
    seekWanted();
    schedule();
  });
  $("replay").addEventListener("click", async () => {
    if (selected === null || $("replay").disabled) return;
    const step = selected;
    try {
      const answer = await fetch(settings.base + "control?key=" + encodeURIComponent(settings.controlKey), { method: "POST", body: "replay " + step });
      $("connection").textContent = answer.ok ? "replaying to step " + step + "…" : (await answer.text()).trim() || "replay refused (" + answer.status + ")";
    } catch (e) {
      $("connection").textContent = "replay failed";
    }
  });

  function renderLesson() {
    const box = $("lesson");
    if (!lessonStop) { box.hidden = true; return; }
    box.hidden = false;
    $("lesson-step").textContent = "Lesson " + lessonStop.file + " · stop " + lessonStop.step + " of " + lessonStop.steps;
    const narration = $("narration");
    narration.textContent = "";
    for (const text of lessonStop.narration || []) narration.appendChild(el("p", null, text));
    $("lesson-next").textContent = lessonStop.command ? "next: " + lessonStop.command : (lessonStop.step > lessonStop.steps ? "the lesson is over" : "paused");
  }

  function renderCommand(line) {
    const title = $("command-title");
    title.textContent = "";
    const lanes = $("lanes");
    lanes.textContent = "";
    $("views").textContent = "";
    $("output").textContent = "";
    if (!line) { title.textContent = "Waiting for the first command…"; $("command-meta").textContent = ""; return; }
    title.appendChild(el("span", "prompt", "wsh> "));
    title.appendChild(document.createTextNode(line.text === null
      ? (line.number === 0 ? "(the session, before its first command)" : "(began before the page's window)") : line.text));
    const meta = [line.location, line.at];
    if (line.number === 0) meta.push("what the session showed as the page started");
    else if (line.status !== null) meta.push(line.status === 0 ? "done in " + line.ms.toFixed(1) + " ms" : "failed (status " + line.status + ")");
    else meta.push("running…");
    if (line.lesson && line.lesson.length) meta.push(line.lesson.join(" "));
    $("command-meta").textContent = meta.filter(Boolean).join(" · ");

    renderDiagram(lanes, line);
    const views = $("views");
    const shown = line.views.length ? line.views.slice(-1) : [];
    if (!shown.length) views.appendChild(el("p", "note", "No View rendered for this command."));
    for (const view of shown) {
      views.appendChild(el("div", "view-name", view.view + (view.terminal ? "" : " (for this page: the script did not show it)")));
      views.appendChild(el("pre", "screen", view.text));
    }
    const output = $("output");
    if (!line.outputs.length) output.appendChild(el("span", "note", "(nothing printed)"));
    for (const out of line.outputs) output.appendChild(el("span", out.stream === "stderr" ? "err" : "out", out.text));
  }

  // --- the sequence diagram (issue 46): lifelines, a call as an arrow, its answer as a dashed arrow back ---
  // A line's `layer` events become messages as `trace diagram` draws them (TraceDiagram.swift): the Shell sends
  // the ViewModel its input, the ViewModel calls the DataController, the DataController sends each request (to
  // the sandbox's Server route) and has the Model decode the answer, then returns; the ViewModel's change goes
  // back to the Shell, which renders the View. A cache or archive answer is a note on the DataController.

  /// The messages of one step: {from, to, text, answer, event} or {note: lifeline, text, event} or {banner, failed}.
  function messages(step) {
    const out = [];
    const caller = step.input !== null ? "DataController" : "Shell";
    const ms = (e) => (typeof e.ms === "number" ? " · " + e.ms.toFixed(1) + " ms" : "");
    const send = (from, to, text, answer, event) => out.push({ from, to, text, answer, event });
    let open = null;   // the DataController call not yet returned
    const close = () => { if (open) { send("DataController", "ViewModel", "return" + ms(open), true, open); open = null; } };
    const layers = step.layers;
    for (let i = 0; i < layers.length; i++) {
      const e = layers[i];
      switch (e.layer + " " + e.event) {
        case "ViewModel input": send("Shell", "ViewModel", e.detail, false, e); break;
        case "ViewModel change": close(); send("ViewModel", "Shell", "onChange " + e.detail, true, e); break;
        case "DataController call": close(); send("ViewModel", "DataController", e.detail, false, e); open = e; break;
        case "Request request": case "Request failed": {
          // `GET URL → 200 · 7.8 KB · new connection`: the request out, its answer back.
          const arrow = e.detail.indexOf(" → "), cross = e.detail.indexOf(" ✗ ");
          const cut = arrow >= 0 ? arrow : cross;
          const sent = cut >= 0 ? e.detail.slice(0, cut) : e.detail;
          const answer = cut >= 0 ? e.detail.slice(cut + (cut === arrow ? 3 : 1)) : e.event;
          send(caller, "Request", sent, false, e);
          while (i + 1 < layers.length && layers[i + 1].layer === "Server") {
            const route = layers[++i];
            send("Request", "Server", route.detail, false, route);
            send("Server", "Request", "", true, route);
          }
          send("Request", caller, answer + ms(e), true, e);
          break;
        }
        case "Model decoded": send("DataController", "Model", "decode", false, e); send("Model", "DataController", e.detail, true, e); break;
        case "View rendered": close(); send("Shell", "View", "render " + e.detail, false, e); break;
        case "Shell done": case "Shell failed":
          close();
          out.push({ banner: (e.event === "failed" ? "failed: " + e.detail : "done") + ms(e), failed: e.event === "failed" });
          break;
        default:
          if (e.layer === "View" && e.event === "none") close();
          out.push({ note: LIFELINES.includes(e.layer) ? e.layer : "Shell", text: e.detail, event: e });
      }
    }
    close();
    return out;
  }

  /// `text` cut where a label may break: after a space, `/` or `,`; before `.` (not in a number), `?`, `&` or `(`; between the
  /// words of a camelCase name; around a wide (CJK) character. A piece never breaks inside (it is drawn
  /// `nowrap`), so no word is cut. TraceSVGView.pieces is the same rule.
  function pieces(text) {
    const out = [];
    let piece = "";
    const chars = Array.from(text);
    const wide = (c) => /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u.test(c);
    chars.forEach((c, i) => {
      const prev = i > 0 ? chars[i - 1] : "";
      const next = i + 1 < chars.length ? chars[i + 1] : "";
      const before = piece !== "" && ("?&(".includes(c) || c === "." && !(/\d/.test(prev) && /\d/.test(next)) ||
        /[\p{Ll}\p{Nd}]/u.test(prev) && /\p{Lu}/u.test(c) || wide(c) || wide(prev) && c !== " ");
      if (before) { out.push(piece); piece = ""; }
      piece += c;
      if (c === " " || (c === "/" || c === ",") && next !== " " && next !== "/") { out.push(piece); piece = ""; }
    });
    if (piece !== "" || !out.length) out.push(piece);
    return out;
  }

  /// A label element whose text breaks only between `pieces`.
  function label(cls, text) {
    const node = el("span", cls);
    for (const piece of pieces(text)) {
      const part = el("span", "w", piece);
      node.appendChild(part);
      node.appendChild(document.createElement("wbr"));
    }
    return node;
  }

  function renderDiagram(box, line) {
    const server = events.some((e) => e.type === "layer" && e.layer === "Server");
    const lifelines = server ? LIFELINES : LIFELINES.filter((l) => l !== "Server");
    const at = (lifeline) => Math.max(0, lifelines.indexOf(lifeline));
    box.style.setProperty("--lanes", String(lifelines.length));
    box.style.gridTemplateColumns = "repeat(" + 2 * lifelines.length + ", minmax(0, 1fr))";
    // Grid lines: lifeline k stands on line 2k+2 of 2N half-columns; a lane-wide box around it runs 2k+1 to 2k+3.
    const around = (k) => (2 * k + 1) + " / " + (2 * k + 3);
    // One row each, top to bottom in the order they happened (auto-placement would pack them side by side).
    let row = 1;
    const put = (node) => { node.style.gridRow = String(row++); box.appendChild(node); };
    lifelines.forEach((name, k) => {
      const head = el("div", "lane-head lane-" + name);
      head.appendChild(label("name", name));
      head.style.gridColumn = around(k);
      head.setAttribute("role", "columnheader");
      head.style.gridRow = "1";
      box.appendChild(head);
    });
    row = 2;
    if (!line.steps.length) {
      put(el("div", "step-end", "No ViewModel input: this command only reads or prints (the terminal below shows what it printed)."));
    }
    line.steps.forEach((s, index) => {
      const head = el("div", "step-head", (s.command || "(command)") + (s.input ? "  →  " + s.input : "  →  straight to the Request layer"));
      head.dataset.step = String(index);
      put(head);
      for (const m of messages(s)) {
        if (m.banner !== undefined) {
          put(el("div", "step-end" + (m.failed ? " failed" : ""), m.banner));
          continue;
        }
        if (m.note !== undefined) {
          const note = el("div", "note-box");
          note.style.gridColumn = around(at(m.note));
          const card = label("ev lane-" + m.event.layer, m.text);
          dataOf(card, m.event);
          note.appendChild(card);
          put(note);
          continue;
        }
        const from = at(m.from), to = at(m.to);
        const arrow = el("div", "msg lane-" + m.event.layer + (m.answer ? " answer" : "") + (to > from ? " right" : " left"));
        arrow.style.gridColumn = (2 * Math.min(from, to) + 2) + " / " + (2 * Math.max(from, to) + 2);
        arrow.style.setProperty("--span", String(Math.abs(to - from)));
        arrow.dataset.from = m.from;
        arrow.dataset.to = m.to;
        // The label sits between the sender's lifeline and the next one toward the receiver: no lifeline crosses it.
        const card = label("ev lane-" + m.event.layer, m.text);
        dataOf(card, m.event);
        arrow.appendChild(card);
        arrow.appendChild(el("div", "arrow"));
        put(arrow);
      }
    });
  }

  function dataOf(card, layer) {
    card.dataset.layer = layer.layer;
    card.dataset.event = layer.event;
    card.title = layer.layer + " · " + layer.event;
    codeLink(card, layer);
  }

  /// The state as it was after line `number`: its own, else the one it began with (a snapshot), else the last
  /// one before it; with the line that holds it.
  function stateAt(number) {
    let best = null;
    for (const [n, line] of lines) {
      const state = line.state || (line.before && line.before.state);
      if (n <= number && state && (!best || n > best.line.number)) best = { line, state };
    }
    return best;
  }

  function renderState(line) {
    const box = $("state");
    const diffBox = $("state-diff");
    box.textContent = "";
    diffBox.textContent = "";
    if (!line) return;
    const holder = stateAt(line.number);
    if (!holder) { box.appendChild(el("p", "note", "No state yet.")); return; }
    const state = holder.state;
    const own = holder.line === line && line.state !== null;
    const diff = own ? line.diff : null;
    const added = new Set(diff ? diff.rows_added : []);
    if (!diff) diffBox.appendChild(el("p", "note", own ? "" : "This command changed no state."));
    if (diff) {
      const change = (cls, text) => { const d = el("div", "change " + cls, text); diffBox.appendChild(d); return d; };
      if (diff.rows_added.length) change("added", "+ rows " + diff.rows_added.length + ": " + diff.rows_added.join(", ")).dataset.kind = "rows_added";
      if (diff.rows_removed.length) change("removed", "− rows " + diff.rows_removed.length + ": " + diff.rows_removed.join(", ")).dataset.kind = "rows_removed";
      for (const s of diff.screens_pushed) change("added", "+ screen " + describeScreen(s)).dataset.kind = "screens_pushed";
      for (const s of diff.screens_popped) change("removed", "− screen " + describeScreen(s)).dataset.kind = "screens_popped";
      if (diff.muted_added.length) change("added", "+ muted " + diff.muted_added.join(", "));
      if (diff.muted_removed.length) change("removed", "− muted " + diff.muted_removed.join(", "));
      if (diff.source) change("changed", "~ source " + diff.source.before + " → " + diff.source.after);
      if (diff.led) change("changed", "~ LED " + diff.led.before + " → " + diff.led.after);
      if (!diffBox.children.length) change("changed", "(no change to the state)");
    }
    const field = (key, value, isNew) => {
      const d = el("div", "field" + (isNew ? " new" : ""));
      d.appendChild(el("span", "key", key + ": "));
      d.appendChild(document.createTextNode(value));
      box.appendChild(d);
    };
    const screens = ["list"].concat(state.screens.map(describeScreen)).join(" › ");
    field("screens", screens, diff && (diff.screens_pushed.length || diff.screens_popped.length));
    field("source", state.source + " · page size " + state.page_size + " · next: " + (state.next === null ? "none" : state.next), diff && diff.source);
    field("rows", String(state.rows.length), diff && (diff.rows_added.length || diff.rows_removed.length));
    const rows = el("div", "rows");
    for (const row of state.rows) {
      const r = el("div", "row" + (added.has(row.id) ? " new" : "") + (row.muted ? " muted" : ""),
        (row.index === null ? "  ✕" : String(row.index).padStart(3, " ")) + "  " + (row.id || "(no id)") + (row.author ? "  @" + row.author : ""));
      r.dataset.id = row.id || "";
      rows.appendChild(r);
    }
    box.appendChild(rows);
    field("muted", state.muted.length ? state.muted.join(", ") : "nobody", diff && (diff.muted_added.length || diff.muted_removed.length));
    const calc = state.calculator;
    field("calculator", "LED " + calc.led + (calc.pending ? " · pending " + calc.pending : "") + (calc.entries.length ? " · " + calc.entries.join(" ") : ""), diff && diff.led);
  }

  function describeScreen(s) {
    if (s.status_id) return s.kind + " of status " + s.status_id;
    if (s.query) return s.kind + " \"" + s.query + "\"";
    return [s.kind, s.screen_name ? "@" + s.screen_name : null, s.user_id ? "uid " + s.user_id : null].filter(Boolean).join(" ");
  }

  function historyAt(number) {
    let best = null, history = null;
    for (const [n, line] of lines) {
      const held = line.history || (line.before && line.before.history);
      if (n <= number && held && (best === null || n > best)) { best = n; history = held; }
    }
    return history;
  }

  function renderHistory(line) {
    const list = $("history");
    list.textContent = "";
    const history = line ? historyAt(line.number) : null;
    const position = $("history-position");
    if (!history) { position.textContent = "No operations yet."; position.dataset.position = "0"; return; }
    const total = history.operations.length;
    position.dataset.position = String(history.position);
    position.dataset.total = String(total);
    position.textContent = "position " + history.position + " of " + total + (history.position < total ? " · redo applies " + (total - history.position) : "")
      + (history.position > 0 ? " · undo takes back #" + history.position : "");
    history.operations.forEach((op, index) => {
      // Applied: below the position (a history sent as a change carries the position, not each operation's flag).
      const applied = index < history.position;
      const item = el("li", applied ? "op applied" : "op undone", op.text);
      item.dataset.applied = String(applied);
      if (index === history.position - 1) item.classList.add("current");
      if (op.remote) item.appendChild(el("span", "remote", "⇅ " + op.remote));
      list.appendChild(item);
    });
  }

  function choose(number) {
    selected = number;
    const numbers = [...lines.keys()];
    following = number === Math.max(...numbers);
    schedule();
  }

  // --- the code panel: the function behind an event, and a request's exchange (issue 46) ---
  // Each `layer` event may name its place in wsh's source (`source` {file, function, line}) and, for a
  // request, its `exchange`. Clicking the event (or Enter on it) opens the panel beside the lanes: the
  // function's source with the line marked, read from the files inside wsh (`source?file=`, compressed)
  // or, in a saved lesson, from the ones it carries (`wsh-sources`); the browser decompresses them.
  const inlineSources = JSON.parse(document.getElementById("wsh-sources").textContent || "{}");
  const sourceTexts = new Map();    // file -> Promise of its text
  let openCode = null;              // the id of the event whose code the panel shows

  function codeLink(card, layer) {
    if (!layer.source && !layer.exchange) return;
    card.classList.add("has-code");
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    card.dataset.id = String(layer.id);
    if (layer.source) {
      card.dataset.file = layer.source.file;
      card.dataset.function = layer.source.function;
      card.dataset.sourceLine = String(layer.source.line);
      card.title = "Show the code: " + layer.source.function + " · " + layer.source.file + ":" + layer.source.line + " (Enter)";
    } else {
      card.title = "Show the request and its answer (Enter)";
    }
    card.classList.toggle("open", openCode === layer.id);
    card.addEventListener("click", () => showCode(layer));
    card.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      showCode(layer);
    });
  }

  function sourceText(file) {
    if (!sourceTexts.has(file)) {
      const loading = (async () => {
        let base64 = inlineSources[file];
        if (base64 === undefined) {
          if (settings.role === "saved") throw new Error("this saved lesson does not carry " + file);
          const answer = await fetch(settings.base + "source?file=" + encodeURIComponent(file));
          if (!answer.ok) throw new Error((await answer.text()).trim() || "HTTP " + answer.status);
          base64 = (await answer.text()).trim();
        }
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
        return await new Response(stream).text();
      })();
      loading.catch(() => sourceTexts.delete(file));
      sourceTexts.set(file, loading);
    }
    return sourceTexts.get(file);
  }

  /// The braces of Swift `text` as pairs {open, close (offsets), openLine, closeLine (from 1)},
  /// skipping comments, string literals ("…", """…""", #"…"#) and character escapes.
  function bracePairs(text) {
    const pairs = [], stack = [];
    let line = 1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "\n") { line++; continue; }
      if (c === "/" && text[i + 1] === "/") { while (i + 1 < text.length && text[i + 1] !== "\n") i++; continue; }
      if (c === "/" && text[i + 1] === "*") {
        let depth = 1; i += 2;
        for (; i < text.length && depth; i++) {
          if (text[i] === "\n") line++;
          else if (text[i] === "/" && text[i + 1] === "*") { depth++; i++; }
          else if (text[i] === "*" && text[i + 1] === "/") { depth--; i++; }
        }
        i--; continue;
      }
      if (c === "#" || c === "\"") {
        let hashes = 0, j = i;
        while (text[j] === "#") { hashes++; j++; }
        if (text[j] !== "\"") continue;
        const triple = text.startsWith("\"\"\"", j);
        const close = (triple ? "\"\"\"" : "\"") + "#".repeat(hashes);
        j += triple ? 3 : 1;
        while (j < text.length && !text.startsWith(close, j)) {
          if (text[j] === "\n") { line++; if (!triple) break; }
          if (text[j] === "\\" && !hashes) j++;
          j++;
        }
        i = j + close.length - 1;
        continue;
      }
      if (c === "{") stack.push({ open: i, openLine: line });
      else if (c === "}" && stack.length) { const pair = stack.pop(); pair.close = i; pair.closeLine = line; pairs.push(pair); }
    }
    return pairs;
  }

  /// The lines (from 1) of the declaration of `name` (as #function gives it: `timeline(_:count:)`,
  /// `init(x:)`, `value`) around `line`: from its keyword's line to its closing brace. Null when
  /// no enclosing declaration matches.
  function functionExtent(text, line, name) {
    const base = name.replace(/\(.*$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const keyword = base === "init" || base === "deinit" || base === "subscript"
      ? new RegExp("\\b" + base + "\\b[?!]?") : new RegExp("\\b(func|var|let|case)\\s+`?" + base + "\\b");
    const pairs = bracePairs(text).filter((p) => p.openLine <= line && line <= p.closeLine).sort((a, b) => (a.close - a.open) - (b.close - b.open));
    const opens = bracePairs(text).map((p) => p.open);
    for (const pair of pairs) {
      // The keyword, at most 15 lines above the brace, with no other brace opened between them.
      let lineStart = text.lastIndexOf("\n", pair.open - 1) + 1, lineNumber = pair.openLine;
      for (let back = 0; back < 15; back++) {
        const match = keyword.exec(text.slice(lineStart, pair.open));
        if (match) {
          const at = lineStart + match.index;
          if (opens.some((o) => o >= at && o < pair.open)) break;
          return { start: lineNumber, end: pair.closeLine };
        }
        if (lineStart === 0) break;
        lineStart = text.lastIndexOf("\n", lineStart - 2) + 1;
        lineNumber--;
      }
    }
    return null;
  }

  async function showCode(layer) {
    openCode = layer.id;
    for (const card of document.querySelectorAll("#lanes .ev.open")) card.classList.remove("open");
    for (const card of document.querySelectorAll("#lanes .ev[data-id='" + layer.id + "']")) card.classList.add("open");
    const panel = $("code-panel");
    panel.hidden = false;
    document.body.classList.add("code-open");
    panel.dataset.event = String(layer.id);
    panel.dataset.state = "loading";
    $("code-title").textContent = layer.source ? layer.source.function : layer.layer + " · " + layer.event;
    $("code-where").textContent = layer.source ? layer.source.file + ":" + layer.source.line : "";
    renderExchange(layer.exchange);
    const list = $("code");
    list.textContent = "";
    if (!layer.source) { panel.dataset.state = "ready"; return; }
    let text;
    try {
      text = await sourceText(layer.source.file);
    } catch (e) {
      if (openCode !== layer.id) return;
      list.appendChild(el("li", "note", "The source could not be read: " + e.message));
      panel.dataset.state = "failed";
      return;
    }
    if (openCode !== layer.id) return;
    const lines = text.split("\n");
    const extent = functionExtent(text, layer.source.line, layer.source.function)
      || { start: Math.max(1, layer.source.line - 10), end: Math.min(lines.length, layer.source.line + 10) };
    for (let n = extent.start; n <= extent.end; n++) {
      const item = el("li", n === layer.source.line ? "mark" : null);
      item.dataset.line = String(n);
      item.appendChild(el("span", "num", n));
      item.appendChild(el("span", "text", lines[n - 1] === "" ? " " : lines[n - 1]));
      list.appendChild(item);
    }
    panel.dataset.state = "ready";
    // The marked line in the middle of the code's own scroll box (scrollIntoView would move the page too).
    const mark = list.querySelector("li.mark");
    if (mark) list.scrollTop = Math.max(0, mark.offsetTop - (list.clientHeight - mark.offsetHeight) / 2);
  }

  function renderExchange(exchange) {
    const box = $("exchange");
    box.textContent = "";
    box.hidden = !exchange;
    if (!exchange) return;
    box.appendChild(el("h3", null, "HTTP exchange"));
    box.appendChild(el("div", "request-line", exchange.method + " " + exchange.url));
    box.appendChild(el("div", "status-line", "→ " + (exchange.status === null || exchange.status === undefined ? "no answer" : "HTTP " + exchange.status)));
    if (exchange.headers && exchange.headers.length) {
      const table = el("dl", "headers");
      for (const [name, value] of exchange.headers) { table.appendChild(el("dt", null, name)); table.appendChild(el("dd", null, value)); }
      box.appendChild(table);
    }
    if (exchange.body !== undefined) {
      box.appendChild(el("div", "view-name", "the answer's first lines"));
      box.appendChild(el("pre", "body", exchange.body || "(empty)"));
    } else if (!exchange.headers) {
      box.appendChild(el("p", "note", "An earlier request of this call: its answer is not kept."));
    }
  }

  function closeCode() {
    openCode = null;
    $("code-panel").hidden = true;
    document.body.classList.remove("code-open");
    for (const card of document.querySelectorAll("#lanes .ev.open")) card.classList.remove("open");
  }
  $("code-close").addEventListener("click", closeCode);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && openCode !== null) closeCode(); });

  // --- controls ---
  function setZoom(z) {
    const zoom = Math.min(3, Math.max(0.6, Math.round(z * 10) / 10));
    document.documentElement.style.setProperty("--zoom", String(zoom));
    try { localStorage.setItem("wsh-zoom", String(zoom)); } catch (e) {}
  }
  function zoom() { return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--zoom")) || 1; }
  function setTheme(theme) {
    document.documentElement.dataset.theme = theme;
    try { localStorage.setItem("wsh-theme", theme); } catch (e) {}
  }
  const query = new URLSearchParams(location.search);
  let theme = query.get("theme");
  try { theme = theme || localStorage.getItem("wsh-theme"); } catch (e) {}
  setTheme(theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  let storedZoom = query.get("zoom");
  try { storedZoom = storedZoom || localStorage.getItem("wsh-zoom"); } catch (e) {}
  if (storedZoom) setZoom(parseFloat(storedZoom));
  $("theme").addEventListener("click", () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
  $("zoom-in").addEventListener("click", () => setZoom(zoom() + 0.1));
  $("zoom-out").addEventListener("click", () => setZoom(zoom() - 0.1));
  $("follow").addEventListener("click", () => { following = true; rebuild(); });

  const presenting = settings.role === "teacher" && settings.presenting === true && settings.controlKey;
  $("presenter").hidden = !presenting;
  $("role").textContent = settings.role === "teacher" ? (presenting ? "teacher · presenting" : "teacher")
    : settings.role === "student" ? "student · read-only" : "saved session";

  async function control(action) {
    if (!presenting) return;
    try {
      const answer = await fetch(settings.base + "control?key=" + encodeURIComponent(settings.controlKey), { method: "POST", body: action });
      if (!answer.ok) $("connection").textContent = "control refused (" + answer.status + ")";
    } catch (e) {
      $("connection").textContent = "control failed";
    }
  }
  $("next").addEventListener("click", () => control("next"));
  $("back").addEventListener("click", () => control("back"));

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (presenting && (e.key === "PageDown" || e.key === " " || e.key === "n")) { e.preventDefault(); control("next"); return; }
    if (presenting && (e.key === "PageUp" || e.key === "b")) { e.preventDefault(); control("back"); return; }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") { e.preventDefault(); stepBy(e.key === "ArrowLeft" ? -1 : 1); return; }
    if (e.key === "+" || e.key === "=") setZoom(zoom() + 0.1);
    else if (e.key === "-") setZoom(zoom() - 0.1);
    else if (e.key === "0") setZoom(1);
    else if (e.key === "t") setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark");
    else if (e.key === "End") { following = true; rebuild(); }
    else if (e.key === "ArrowUp" || e.key === "ArrowDown") { e.preventDefault(); stepBy(e.key === "ArrowUp" ? -1 : 1); }
  });

  $("older").addEventListener("click", async () => {
    if (!events.length) return;
    following = false;
    const answer = await fetch(settings.base + "older?before=" + events[0].id + "&count=500");
    if (answer.ok) add(await answer.json());
  });

  // --- the events: inside the file, or from the stream ---
  add(JSON.parse(document.getElementById("wsh-events").textContent));
  if (settings.role === "saved") {
    $("connection").textContent = "saved · " + events.length + " events";
    schedule();
  } else {
    const pill = (text, state) => { $("connection").textContent = text; $("connection").className = "pill " + state; };
    let behind = false;
    let batch = [];
    // The stream: EventSource reconnects by itself (sending Last-Event-ID) when a stream ends or the
    // network drops. A refusal (the server has no seat for this page) closes it for good instead: the
    // page asks why, says so, and tries again later rather than spinning on "reconnecting…".
    const listen = () => {
      const newest = events.length ? events[events.length - 1].id : null;
      const url = settings.base + "events" + (newest === null ? "" : "?after=" + newest);
      const source = new EventSource(url);
      source.addEventListener("open", () => { behind = false; pill("live", "live"); });
      source.addEventListener("error", () => {
        if (source.readyState === EventSource.CLOSED) { refused(url); return; }
        pill(behind ? "fell behind · catching up…" : "reconnecting…", "down");
      });
      // The server let this page go because it read too slowly; the reconnection catches it up.
      source.addEventListener("behind", () => { behind = true; pill("fell behind · catching up…", "down"); });
      source.addEventListener("window", (e) => { try { oldestAvailable = JSON.parse(e.data).oldest; } catch (x) {} schedule(); });
      source.addEventListener("message", (e) => {
        try { batch.push(JSON.parse(e.data)); } catch (x) { return; }
        if (batch.length === 1) queueMicrotask(() => { const list = batch; batch = []; add(list); });
      });
    };
    const refused = async (url) => {
      let why = "refused";
      try {
        const stop = new AbortController();
        const answer = await fetch(url, { signal: stop.signal, cache: "no-store" });
        // A seat came free meanwhile: this stream is let go and a new one opened (after a second,
        // so that a seat that keeps coming and going cannot set the page looping).
        if (answer.ok) { stop.abort(); setTimeout(listen, 1000); return; }
        why = (await answer.text()).trim() || "refused (" + answer.status + ")";
      } catch (e) {}
      pill(why + " · trying again in 10 s", "refused");
      setTimeout(listen, 10000);
    };
    listen();
  }
  // The bar's height, for what stays in view under it.
  const bar = () => document.documentElement.style.setProperty("--bar", $("bar").offsetHeight + "px");
  new ResizeObserver(bar).observe($("bar"));
  bar();
  window.wshPage = { events: () => events, lines: () => lines, selected: () => selected, functionExtent, pieces };
})();