#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (issue 16 § 5): Debian's `postgresql`
# package (installed by scripts/setup.sh), a fresh cluster in DIR, listening only on a
# Unix socket in DIR (no TCP port), durable (fsync on) like a real server.
#
#   scripts/pg.sh start DIR   initdb + start; prints the URL, e.g.
#                             postgres://kontor@localhost/postgres?host=DIR
#   scripts/pg.sh stop DIR    stop at once and delete DIR
#   scripts/pg.sh halt DIR    stop at once (as a crash would), keeping the data
#   scripts/pg.sh resume DIR  start a halted cluster again
#
# PostgreSQL refuses to run as root, so under root the cluster belongs to the `postgres`
# system user that the Debian package creates.
set -euo pipefail

cmd=${1:?usage: pg.sh start|stop|halt|resume DIR}
dir=${2:?usage: pg.sh start|stop|halt|resume DIR}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "pg.sh: PostgreSQL is not installed (run scripts/setup.sh)" >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

run() {
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=on -c max_connections=300 -c shared_buffers=64MB" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
}

case "$cmd" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U kontor --auth=trust -E UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    run
    echo "postgres://kontor@localhost/postgres?host=$dir"
    ;;
halt)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
resume)
    run
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg.sh start|stop|halt|resume DIR" >&2
    exit 2
    ;;
esac
