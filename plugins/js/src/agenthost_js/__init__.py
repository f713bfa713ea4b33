"""JavaScript tools for agenthost: tools written and created at run time in a sandboxed engine."""
