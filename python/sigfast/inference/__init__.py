"""The public front-ends: each builds a request (or a closed form) and returns a result."""
