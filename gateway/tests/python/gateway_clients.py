"""A tool-using conversation through the nab gateway with an official client library.

    gateway_clients.py SOCKET CLIENT MODE

CLIENT is `anthropic` (Messages), `responses` (OpenAI Responses) or `chat` (OpenAI chat
completions); MODE is `whole` or `stream` (the libraries' own stream helpers). The client
talks to the gateway's Unix socket, or, when SOCKET is `env`, to the base URL and key the
environment gives (OPENAI_BASE_URL, ANTHROPIC_BASE_URL and their keys, read by the
libraries themselves, as in nab's sandbox). The model is expected to call `read_file` first; the
tool's result is sent back and the model's final text read. One JSON line is printed per
turn: {"text", "calls": [[id, name, arguments]], "stop", "usage": {...}} with the usage as
the library reports it. Any error exits non-zero with the library's message.
"""

import json
import sys

try:
    import httpx2 as httpx
except ImportError:  # the libraries before their move to httpx2
    import httpx

SYSTEM = "You read files."
QUESTION = "What does a.txt say?"
RESULT = "hello"
SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}}


def http_client(sock):
    return httpx.Client(transport=httpx.HTTPTransport(uds=sock), timeout=30)


def connection(sock, path):
    """The client's arguments for reaching the gateway: none with `env` (the library reads
    its own variables), else the socket, with `path` as the base URL's path."""
    if sock == "env":
        return {}
    return dict(api_key="unused", base_url="http://gateway" + path, http_client=http_client(sock))


def report(text, calls, stop, usage):
    print(json.dumps({"text": text, "calls": calls, "stop": stop, "usage": usage}), flush=True)


def anthropic_turns(sock, stream):
    import anthropic

    client = anthropic.Anthropic(max_retries=0, **connection(sock, ""))
    tools = [{"name": "read_file", "description": "Reads a file.", "input_schema": SCHEMA}]
    messages = [{"role": "user", "content": QUESTION}]

    def ask():
        args = dict(model="claude-agent", max_tokens=256, system=SYSTEM, messages=messages, tools=tools)
        if stream:
            with client.messages.stream(**args) as s:
                deltas = "".join(s.text_stream)
                msg = s.get_final_message()
            text = "".join(b.text for b in msg.content if b.type == "text")
            assert deltas == text, (deltas, text)
            return msg
        return client.messages.create(**args)

    for _ in range(2):
        msg = ask()
        text = "".join(b.text for b in msg.content if b.type == "text")
        calls = [[b.id, b.name, b.input] for b in msg.content if b.type == "tool_use"]
        report(text, calls, msg.stop_reason, msg.usage.model_dump(exclude_none=True))
        if not calls:
            return
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in msg.content]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": c[0], "content": RESULT} for c in calls]})


def responses_turns(sock, stream):
    import openai

    client = openai.OpenAI(max_retries=0, **connection(sock, "/v1"))
    tools = [{"type": "function", "name": "read_file", "description": "Reads a file.",
              "parameters": SCHEMA, "strict": False}]
    items = [{"role": "user", "content": QUESTION}]

    def ask():
        args = dict(model="gpt-agent", instructions=SYSTEM, input=items, tools=tools, max_output_tokens=256)
        if stream:
            with client.responses.stream(**args) as s:
                for _ in s:
                    pass
                return s.get_final_response()
        return client.responses.create(**args)

    for _ in range(2):
        r = ask()
        calls = [[o.call_id, o.name, json.loads(o.arguments)] for o in r.output if o.type == "function_call"]
        report(r.output_text, calls, r.status, r.usage.model_dump(exclude_none=True))
        if not calls:
            return
        items.extend(o.model_dump(exclude_none=True) for o in r.output)
        items.extend({"type": "function_call_output", "call_id": c[0], "output": RESULT} for c in calls)


def chat_turns(sock, stream):
    import openai

    client = openai.OpenAI(max_retries=0, **connection(sock, "/v1"))
    tools = [{"type": "function", "function": {"name": "read_file", "description": "Reads a file.",
                                               "parameters": SCHEMA}}]
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}]

    def ask():
        args = dict(model="agent-model", messages=messages, tools=tools, max_tokens=256)
        if stream:
            with client.chat.completions.stream(**args, stream_options={"include_usage": True}) as s:
                for _ in s:
                    pass
                return s.get_final_completion()
        return client.chat.completions.create(**args)

    for _ in range(2):
        c = ask()
        m = c.choices[0].message
        calls = [[t.id, t.function.name, json.loads(t.function.arguments)] for t in m.tool_calls or []]
        report(m.content or "", calls, c.choices[0].finish_reason, c.usage.model_dump(exclude_none=True))
        if not calls:
            return
        messages.append(m.model_dump(exclude_none=True, include={"role", "content", "tool_calls"}))
        messages.extend({"role": "tool", "tool_call_id": t[0], "content": RESULT} for t in calls)


def main():
    sock, client, mode = sys.argv[1:4]
    turns = {"anthropic": anthropic_turns, "responses": responses_turns, "chat": chat_turns}[client]
    turns(sock, mode == "stream")


if __name__ == "__main__":
    main()
