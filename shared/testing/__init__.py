"""Test helpers shipped with the shared package: polling with a deadline, broker harnesses."""
