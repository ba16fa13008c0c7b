"""Runs app.py when /room is a fresh server's first request (mergescope_ui/shared/entry.py says why)."""

from mergescope_ui.shared.entry import run_app

run_app()
