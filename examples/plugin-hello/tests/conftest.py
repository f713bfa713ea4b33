pytest_plugins = ["agenthost.testing"]
