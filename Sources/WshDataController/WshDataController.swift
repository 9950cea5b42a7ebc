// WshDataController: filled in by its issue.
