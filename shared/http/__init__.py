"""HTTP conventions every service follows: problem+json errors, bearer JWT auth, health probes."""
