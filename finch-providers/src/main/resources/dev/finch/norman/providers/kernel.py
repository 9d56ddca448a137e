# The live kernel of dev.finch.norman.providers.PythonKernel: one JSON object per line on stdin
# ({"op": "exec"|"eval", "code": "...", "max": n}), answered with one JSON object per line on the protocol stream
# ({"ok": bool, "out": captured stdout and stderr, "value": eval's result as text, "error": the exception}).
# Everything runs in one persistent globals dict. The code's own fd 1 goes to stderr, so nothing it prints can
# corrupt the protocol, and its stdin is empty. Its first line, {"ready": true}, says it has started.
import contextlib, io, json, os, sys, traceback

proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
requests = sys.stdin
sys.stdin = io.StringIO("")
env = {"__name__": "__kernel__", "__builtins__": __builtins__}

def cut(s, n):
    return s if len(s) <= n else s[:n] + "\n[output truncated]"

proto.write(json.dumps({"ready": True}) + "\n")
proto.flush()

for line in requests:
    try:
        req = json.loads(line)
    except ValueError as e:
        proto.write(json.dumps({"ok": False, "out": "", "error": "bad request: %s" % e}) + "\n")
        proto.flush()
        continue
    buf = io.StringIO()
    reply = {"ok": True}
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            if req.get("op") == "eval":
                v = eval(compile(req["code"], "<kernel>", "eval"), env)
                try:
                    reply["value"] = json.dumps(v)
                except (TypeError, ValueError):
                    reply["value"] = str(v)
            else:
                exec(compile(req["code"], "<kernel>", "exec"), env)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        reply["ok"] = False
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        reply["error"] = "".join(tb[-1:]).strip() if not isinstance(e, SyntaxError) else "".join(tb[-3:]).strip()
    reply["out"] = cut(buf.getvalue(), int(req.get("max", 65536)))
    proto.write(json.dumps(reply) + "\n")
    proto.flush()
