// WshLanguage: filled in by its issue.
