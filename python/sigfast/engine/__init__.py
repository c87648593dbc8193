"""The engine: the request, the resampling loops that answer it, the schemes, the shared options."""
