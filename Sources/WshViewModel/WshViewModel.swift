// WshViewModel: filled in by its issue.
