"""Web tools for agenthost: web_fetch with an SSRF guard and readable extraction, web_search."""
