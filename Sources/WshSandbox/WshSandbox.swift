// WshSandbox: filled in by its issue.
