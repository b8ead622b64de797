pytest_plugins = ["fake_discord.pytest_plugin"]
