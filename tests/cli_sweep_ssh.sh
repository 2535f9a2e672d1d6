#!/usr/bin/env bash
# cli_sweep_ssh.sh - scripts/sweep.sh --sshlogin through GNU parallel's own
# engine, against a real OpenSSH server: sshd on 127.0.0.1 on two high ports
# (a throwaway host key and user key in a temporary folder, stopped by a
# trap), two logins (one per port) with a relative -o, so every job runs in
# a login shell elsewhere.  Both logins take jobs; one job is killed
# (SIGKILL, once); the sweep fails naming the point, and --resume over the
# same logins finishes with the byte-identical CSV of a local sweep.
# Skipped (77) only where sshd, ssh or ssh-keygen is missing
# (scripts/deps.sh installs openssh-server and openssh-client), or sshd
# cannot start here.  Every wait is bounded.  Needs WARPSIM_BIN,
# WARPSIM_ROOT and GNU parallel.
set -u
bin=${WARPSIM_BIN:?}
root=${WARPSIM_ROOT:?}
sshd=$(command -v sshd || echo /usr/sbin/sshd)
for t in "$sshd" ssh ssh-keygen parallel; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t not installed (scripts/deps.sh installs it): skipped"; exit 77; }
done
. "$root/tests/common.sh"
sshd_pid=""
stop_sshd() { [ -z "$sshd_pid" ] || { kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; }; sshd_pid=""; }
trap 'stop_sshd; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
fail() { echo "FAIL: $*" >&2; [ ! -s "$tmp/sshd.log" ] || tail -5 "$tmp/sshd.log" >&2; echo "$passed passed, 1 failed"; exit 1; }

# sshd refuses to start without its privilege separation directory, which
# the package's service creates; as root, create it (empty, as the service).
if [ ! -d /run/sshd ]; then
  [ "$(id -u)" -eq 0 ] && mkdir -m 0755 /run/sshd || { echo "no /run/sshd and not root: skipped"; exit 77; }
fi
chmod 700 "$tmp"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" -C warpsim-test-host || fail "host key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key" -C warpsim-test-user || fail "user key"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
chmod 600 "$tmp/authorized_keys"
user=$(id -un)

write_ssh_config() {
  cat >"$tmp/ssh_config" <<EOF
Host wsA wsB
  HostName 127.0.0.1
  User $user
  IdentityFile $tmp/user_key
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking yes
  UserKnownHostsFile $tmp/known_hosts
  ConnectTimeout 5
  LogLevel ERROR
Host wsA
  Port $p1
Host wsB
  Port $p2
EOF
  { echo "[127.0.0.1]:$p1 $(cut -d' ' -f1,2 "$tmp/host_key.pub")"
    echo "[127.0.0.1]:$p2 $(cut -d' ' -f1,2 "$tmp/host_key.pub")"; } >"$tmp/known_hosts"
}
# start_sshd: sshd on two free high ports (a few tries: a port another
# program holds fails its bind at once); ready when both answer a login
# (at most 5 s a try).
start_sshd() {
  local _
  for _ in 1 2 3; do
    p1=$((20000 + RANDOM % 20000)) p2=$((40000 + RANDOM % 20000))
    write_ssh_config
    start_sshd_once && return 0
  done
  return 1
}
start_sshd_once() {
  { echo "Port $p1"; echo "Port $p2"; cat "$tmp/sshd_config.base"; } >"$tmp/sshd_config"
  "$sshd" -D -e -f "$tmp/sshd_config" 2>"$tmp/sshd.log" &
  sshd_pid=$!
  local _
  for _ in $(seq 50); do
    kill -0 "$sshd_pid" 2>/dev/null || break
    if ssh -F "$tmp/ssh_config" wsA true 2>/dev/null && ssh -F "$tmp/ssh_config" wsB true 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  stop_sshd
  return 1
}
cat >"$tmp/sshd_config.base" <<EOF
ListenAddress 127.0.0.1
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
AllowUsers $user
MaxStartups 64
MaxSessions 64
EOF
start_sshd || fail "sshd does not start (5 tries on random ports)"
ok

# warpsim through a wrapper that notes the server port of the login it runs
# under ($SSH_CONNECTION) and kills the run of launch.blocks_per_sm=3 once.
cp "$root/traces/fma.ini" "$tmp/k.ini"
cat >"$tmp/wrap.sh" <<EOF
#!/usr/bin/env bash
echo "\${SSH_CONNECTION##* }" >>"$tmp/ports.log"
case " \$* " in
  *" launch.blocks_per_sm=3 "*) if mkdir "$tmp/killed" 2>/dev/null; then kill -KILL \$\$; fi ;;
esac
exec "$bin" "\$@"
EOF
chmod +x "$tmp/wrap.sh"
export PARALLEL_SSH="ssh -F $tmp/ssh_config"
args=(--kernel "$tmp/k.ini" --set stream.iterations=64 --axis launch.blocks_per_sm=1..6 --quiet)
remote=(--sshlogin 1/wsA --sshlogin 1/wsB)

# A local sweep, the reference.
WARPSIM=$bin timeout 120 "$root/scripts/sweep.sh" -o "$tmp/ref.csv" "${args[@]}" || fail "local sweep"
[ "$(wc -l <"$tmp/ref.csv")" -eq 7 ] || fail "local sweep: $(wc -l <"$tmp/ref.csv") lines"

# Over the two logins, from another folder with a relative -o: one job is
# killed, the sweep fails and names it.
mkdir "$tmp/run"
cd "$tmp/run" || fail "cd"
rc=0
WARPSIM=$tmp/wrap.sh timeout 120 "$root/scripts/sweep.sh" -o ssh.csv "${args[@]}" "${remote[@]}" 2>"$tmp/err" || rc=$?
[ $rc -eq 1 ] || fail "ssh sweep with a killed job: exit $rc, expected 1: $(cat "$tmp/err")"
grep -q 'point 3 (.*launch.blocks_per_sm=3)' "$tmp/err" || fail "the killed point is not named: $(cat "$tmp/err")"
[ -d ssh.csv.d ] && [ ! -e ssh.csv ] && [ ! -e ssh.csv.d/3.row ] || fail "state after the failure: $(ls ssh.csv.d 2>&1)"
ok
# Every job ran under one of the two logins, and both took jobs (the
# sweep's own checks and point 1 run here, outside any login: empty lines).
grep -q . "$tmp/ports.log" || fail "no job ran"
! grep -v '^$' "$tmp/ports.log" | grep -qvx "$p1\|$p2" || fail "a job ran outside the two logins: $(sort -u "$tmp/ports.log" | paste -sd' ')"
grep -qx "$p1" "$tmp/ports.log" && grep -qx "$p2" "$tmp/ports.log" || fail "one login took no job: $(sort "$tmp/ports.log" | uniq -c | paste -sd' ')"
ok
# --resume over the same logins runs only what is missing.
: >"$tmp/ports.log"
WARPSIM=$tmp/wrap.sh timeout 120 "$root/scripts/sweep.sh" -o ssh.csv "${args[@]}" "${remote[@]}" --resume 2>"$tmp/err" ||
  fail "--resume: $(cat "$tmp/err")"
jobs=$(grep -c . "$tmp/ports.log")
[ "$jobs" -eq 1 ] || fail "--resume ran $jobs jobs (only the killed point expected)"
cmp -s ssh.csv "$tmp/ref.csv" || fail "resumed CSV differs from the local sweep: $(diff ssh.csv "$tmp/ref.csv" | head -5)"
[ ! -e ssh.csv.d ] && [ ! -e ssh.csv.lock ] || fail "state left after the sweep"
ok
cd / || true
stop_sshd
echo "$passed passed, 0 failed"
