"""Desktop tools for agenthost: screenshot, open_in_folder, computer control, system_info."""
