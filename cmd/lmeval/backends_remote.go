package main

import _ "lmeval/backend/remote" // registers "local-completions" and "local-chat-completions"
