// WshRequest: filled in by its issue.
