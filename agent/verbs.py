"""The verbs a question is asked with, grouped by what they ask (one English lexicon).

A set that means "this and more" is built from the smaller one, so the groups cannot drift
apart: what one binds oneself by is reported, and so is what one wants or asks of another.
"""
from __future__ import annotations

# Verbs by which one binds oneself: "what did I promise / say I'd / agree to do?" asks what the
# wearer undertook; any other ("what do I need to bring?", "what should I pick up?") asks what
# they owe, which includes what others asked of them.
COMMITTING = frozenset({"say", "tell", "promise", "agree", "offer", "commit", "mention", "decide", "plan",
                        "intend", "swear", "vow", "volunteer"})
# "what did Bob want from me?": whatever he asked
WANTING = frozenset({"want", "need", "expect", "request", "wish"})
# One asks another to do something by these ("what did Bob ask / remind me to buy?") ...
ASKING_OF = frozenset({"ask", "remind"})
# ... and the wearer has someone do it by these too ("what did I ask / tell Jonas to do?").
INSTRUCTING = ASKING_OF | {"tell", "request"}
# Verbs whose clause names the act asked about: said, promised, decided or wanted ("what did I
# say I'd bring?", "what did he want to borrow?").
REPORTING = COMMITTING | {"want", "need", "hope"}
# Verbs whose complement is something said, asked or intended: a time inside it is its content
# ("what did I promise [to do after work]?"), not when the question is about.
SAYING_OR_INTENDING = REPORTING | ASKING_OF | {"suggest", "expect", "have"}
# Verbs whose answer is itself a question.
ASKING = frozenset({"ask", "wonder", "inquire", "question", "query"})
# Verbs of speaking: "what did she say?" asks for a line, not about the verb's own topic; "who
# said / asked / told ...?" asks who did the talking, where any other verb ("who is leading the
# meeting") asks for the person the evidence names.
SPEAKING = frozenset({"say", "tell", "ask", "mention", "talk", "speak", "request", "remind", "want", "suggest",
                      "call"})
# "who did I ring?": a call is heard on a call, a voice message or a conversation, not in a talk or a film
CALLING = frozenset({"call", "ring", "phone", "telephone", "dial"})
# "did I see anyone cycling?": seen, so a sighting answers
SEEING = frozenset({"see", "notice", "spot", "watch", "observe"})
