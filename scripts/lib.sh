# Shared by the scripts that start servers of their own; source it from the
# repository root. Callers keep an array `pids` of what to stop on exit.

# A free TCP port on loopback.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Waits (up to 10 s) until something listens on 127.0.0.1:$1.
wait_for_port() {
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1 after 10 s" >&2
  return 1
}

# Starts a private nats-server 2.11+ with JetStream on a free port, its store
# and log under $1, records its pid in `pids`, exports NATS_URL, and says so.
start_private_nats() {
  local dir=$1 bin port
  bin=$(scripts/nats-server.sh)
  port=$(free_port)
  # A session of its own, so Ctrl-C in the terminal leaves it to stop_all,
  # after what uses it. (A background child of a script is never a process
  # group leader, so setsid runs the server in place and $! is the server.)
  setsid "$bin" -a 127.0.0.1 -p "$port" -js -sd "$dir/nats" >"$dir/nats-server.log" 2>&1 &
  pids+=($!)
  wait_for_port "$port"
  export NATS_URL="nats://127.0.0.1:$port"
  echo "started: a private $("$bin" --version) on $NATS_URL (store in $dir)"
}

# Stops the given processes together (SIGTERM) and waits for them, quietly:
# no job notices ("Terminated", "Killed") for them later either.
stop_pids() {
  [ $# -gt 0 ] || return 0
  kill "$@" 2>/dev/null || true
  local pid
  for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
}

# Stops everything in `pids`, the last started first, each waited for before
# the next: a server outlives what uses it.
stop_all() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pids "${pids[i]}"; done
}
