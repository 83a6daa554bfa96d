// Placeholder replaced by the PNG shim.
