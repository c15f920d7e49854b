package main

import _ "github.com/lmeval/lmeval/backend/remote" // registers "local-completions" and "local-chat-completions"
