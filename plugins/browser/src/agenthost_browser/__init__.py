"""Browser tools for agenthost: a real Chromium through Playwright, with stealth and element refs."""
