// The script API of seed 004, evaluated in every fresh context before the tool's file.
// Every host function is __ah_call bound to its op name: one bridge, __host(op, argsJson),
// taken off the global object here; permissions are checked on the Python side, so
// nothing a script redefines can widen them. Kept tiny: it is compiled on every call.
(function __ah_prelude(g) {
  var b = g.__host, logs = [], out = null, s = Array.prototype.slice, ops = "%OPS%".split(" ");
  delete g.__host;
  function __ah_call(op) {
    var r = JSON.parse(b(op, JSON.stringify(s.call(arguments, 1))));
    if (r.e === undefined) return r.v;
    var e = new Error(r.e);
    e.name = r.n;
    e.type = r.t;
    throw e;
  }
  function __ah_log(level) {
    logs.push([level, s.call(arguments, 1).map(function __ah_show(v) {
      try { var t = typeof v === "string" || v instanceof Error ? String(v) : JSON.stringify(v); } catch (e) {}
      return t === undefined ? String(v) : t;
    }).join(" ")]);
  }
  for (var i = 0; i < ops.length; i++) {
    var p = ops[i].split(".");
    (g[p[0]] = g[p[0]] || {})[p[1]] = p[0] === "console" ? __ah_log.bind(null, p[1]) : __ah_call.bind(null, ops[i]);
  }
  g.console.table = function __ah_table(data) { logs.push(["log", __ah_call("console.table", data)]); };
  g.utils.timestamp = function __ah_timestamp() { return Math.floor(Date.now() / 1000); };
  JSON.pretty = function __ah_pretty(v) { return JSON.stringify(v, null, 2); };
  function __ah_fail(e) {
    return e instanceof Error ? { name: e.name, message: String(e.message), type: e.type, stack: e.stack } : { message: String(e) };
  }
  Object.defineProperty(g, "__agenthost", { value: {
    start: function __ah_start(params) {
      try {
        if (typeof g.execute !== "function") throw new Error("the script defines no execute(params) function");
        var v = g.execute(JSON.parse(params));
        out = { value: v };
        if (v && typeof v.then === "function") {
          out = { error: { message: "execute() returned a promise that never settled" } };
          v.then(function __ah_ok(x) { out = { value: x }; }, function __ah_no(e) { out = { error: __ah_fail(e) }; });
        }
      } catch (e) { out = { error: __ah_fail(e) }; }
    },
    result: function __ah_result() {
      out = out || { error: { message: "the script did not run" } };
      out.logs = logs;
      try { return JSON.stringify(out); } catch (e) {
        return JSON.stringify({ error: { message: "the result cannot be turned into JSON: " + e.message }, logs: logs });
      }
    },
    describe: function __ah_describe() {
      return JSON.stringify({ tool: typeof g.tool === "undefined" ? null : g.tool, execute: typeof g.execute === "function" });
    },
  } });
})(globalThis);
