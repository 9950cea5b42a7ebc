// WshShell: filled in by its issue.
