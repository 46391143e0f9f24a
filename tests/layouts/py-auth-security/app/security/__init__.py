"""Sessions, access tokens, password hashing and CSRF protection."""
