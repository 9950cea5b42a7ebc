// WshModel: filled in by its issue.
