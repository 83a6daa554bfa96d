// Placeholder replaced by the JPEG shim.
