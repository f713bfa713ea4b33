"""MCP client plugin for agenthost: mount other MCP servers' tools."""
