"""A small internet in network namespaces, for the online tests behind NATs (issue 45).

    public (jwN-pub): 10.199.0.1 and .2 on a bridge: the tracker, the site, coturn (STUN at
      both, TURN at .1, relaying from .3); a default route to nowhere (the rest of the internet)
      |-- nat1 (jwN-nat1): WAN 10.199.0.11, LAN 10.199.1.1, iptables NAT -- home1 10.199.1.2
      `-- nat2 (jwN-nat2): WAN 10.199.0.12, LAN 10.199.2.1, iptables NAT -- home2 10.199.2.2

The public network has no route to either home network, and neither home network to the
other: a packet between two homes must pass both NATs.  A NAT is ``cone`` (``MASQUERADE``:
Linux keeps the source port where it can, one mapping for every destination, as most home
routers do) or ``symmetric`` (``MASQUERADE --random-fully``: a new random port for every new
destination, as some mobile and corporate networks do).  Only a packet that answers one
the home sent gets in (conntrack), as in a home router.

A home's browser sees the site and the tracker at 127.0.0.1 (the page's Content-Security-
Policy allows WebSockets to this device only, and crypto.subtle needs a secure origin):
``nat_forward.py`` in the home namespace passes those TCP connections on, through the NAT,
to the public network.  The browser itself runs in the home namespace (``browser_wrapper``:
Playwright launches ``ip netns exec <home> chromium``).

Everything made here lives in the namespaces made here, named with this process's id, in
10.199.0.0/16: deleting the namespaces removes every veth, address, route and iptables rule.
``Lab.close`` (also on failure: use it as a context manager) stops the processes it started
and deletes the namespaces.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = "10.199.0.1"  # the tracker, the site, STUN and TURN
PUBLIC2 = "10.199.0.2"  # a second address of the same STUN server (a NAT's mapping per destination)
RELAY = "10.199.0.3"  # coturn's relayed addresses
HOMES = {"home1": ("10.199.0.11", "10.199.1"), "home2": ("10.199.0.12", "10.199.2")}
SITE_PORT = 8000  # at 127.0.0.1 in a home, and at PUBLIC
TRACKER_PORT = 8123
TURN_PORT = 3478
REALM = "jabberwocky.test"


def unavailable() -> str | None:
    """Why a lab cannot be built here (None: it can)."""
    if sys.platform != "linux":
        return "network namespaces are Linux's"
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "building network namespaces and NATs needs root"
    for tool, package in (("ip", "iproute2"), ("iptables", "iptables"), ("turnserver", "coturn")):
        if not shutil.which(tool) and not Path(f"/usr/sbin/{tool}").exists() \
                and not Path(f"/usr/bin/{tool}").exists():
            return f"{tool} is missing (Debian: apt-get install {package})"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "no Chromium at /usr/bin/chromium"
    probe = f"jwprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode:
        return f"ip netns add failed: {made.stderr.strip()}"
    try:
        nat = subprocess.run(["ip", "netns", "exec", probe, "iptables", "-t", "nat", "-L"],
                             capture_output=True, text=True)
        if nat.returncode:
            return f"iptables' nat table is not usable: {nat.stderr.strip()}"
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def sh(*argv: str) -> None:
    done = subprocess.run(list(argv), capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")


class Lab:
    """The namespaces, their NATs and the public network's servers (see the module doc)."""

    def __init__(self, nat: str = "cone") -> None:
        if nat not in ("cone", "symmetric"):
            raise ValueError(nat)
        self.nat = nat
        tag = f"jw{os.getpid() % 100000}"
        self.tag = tag
        self.ns = {"pub": f"{tag}-pub", "nat1": f"{tag}-nat1", "nat2": f"{tag}-nat2",
                   "home1": f"{tag}-home1", "home2": f"{tag}-home2"}
        self.dir = Path(tempfile.mkdtemp(prefix=f"{tag}-lab-"))
        self.procs: list[subprocess.Popen[str]] = []
        self.made: list[str] = []
        self.turn_user = "player"
        self.turn_password = secrets.token_urlsafe(12)

    # -- building and removing -----------------------------------------------------

    def __enter__(self) -> Lab:
        try:
            self.build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def run_in(self, ns: str, *argv: str) -> None:
        sh("ip", "netns", "exec", self.ns[ns], *argv)

    def build(self) -> None:
        for name in self.ns.values():
            sh("ip", "netns", "add", name)
            self.made.append(name)
            sh("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        self.run_in("pub", "ip", "link", "add", "br0", "type", "bridge")
        self.run_in("pub", "ip", "addr", "add", f"{PUBLIC}/24", "dev", "br0")
        self.run_in("pub", "ip", "addr", "add", f"{PUBLIC2}/24", "dev", "br0")
        self.run_in("pub", "ip", "addr", "add", f"{RELAY}/24", "dev", "br0")
        self.run_in("pub", "ip", "link", "set", "br0", "up")
        # the rest of the internet: a default route to a cable to nowhere, where a packet to an
        # address nobody has (a home's private address, say) goes and is lost without a word.
        # With no route at all, coturn's send to such an address fails at once (ENETUNREACH)
        # and coturn closes the whole allocation: the relayed game then stops seconds after
        # it starts (seen here); on the internet that send succeeds and the packet is lost
        # (a cable to nowhere: its far end has no address and forwards nothing)
        self.run_in("pub", "ip", "link", "add", "void0", "type", "veth", "peer", "name", "void1")
        self.run_in("pub", "ip", "addr", "add", "10.199.9.1/30", "dev", "void0")
        self.run_in("pub", "ip", "link", "set", "void0", "up")
        self.run_in("pub", "ip", "link", "set", "void1", "up")
        mac = subprocess.run(["ip", "netns", "exec", self.ns["pub"], "cat",
                              "/sys/class/net/void1/address"],
                             capture_output=True, text=True, check=True).stdout.strip()
        self.run_in("pub", "ip", "neigh", "add", "10.199.9.2", "lladdr", mac, "dev", "void0",
                    "nud", "permanent")
        self.run_in("pub", "ip", "route", "add", "default", "via", "10.199.9.2")
        for n, (home, (wan, lan)) in enumerate(HOMES.items(), start=1):
            nat = f"nat{n}"
            # a cable from the public bridge to the NAT's WAN side, made in the public
            # namespace and its other end moved: nothing appears in this machine's own
            self.run_in("pub", "ip", "link", "add", f"w{n}", "type", "veth", "peer", "name", "wan")
            self.run_in("pub", "ip", "link", "set", "wan", "netns", self.ns[nat])
            self.run_in("pub", "ip", "link", "set", f"w{n}", "master", "br0", "up")
            self.run_in(nat, "ip", "addr", "add", f"{wan}/24", "dev", "wan")
            self.run_in(nat, "ip", "link", "set", "wan", "up")
            self.run_in(nat, "ip", "link", "add", "lan", "type", "veth", "peer", "name", "eth0")
            self.run_in(nat, "ip", "link", "set", "eth0", "netns", self.ns[home])
            self.run_in(nat, "ip", "addr", "add", f"{lan}.1/24", "dev", "lan")
            self.run_in(nat, "ip", "link", "set", "lan", "up")
            self.run_in(nat, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
            masquerade = ["-j", "MASQUERADE"]
            if self.nat == "symmetric":
                masquerade.append("--random-fully")
            self.run_in(nat, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", *masquerade)
            # a home router: in from the WAN only what answers the home
            self.run_in(nat, "iptables", "-A", "FORWARD", "-i", "wan", "-m", "conntrack",
                        "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT")
            self.run_in(nat, "iptables", "-A", "FORWARD", "-i", "wan", "-j", "DROP")
            # and nothing unasked for to the router itself: dropped before conntrack keeps
            # it, or the entry would take the very port a home's next packet out to that
            # sender needs, and the NAT would give it another (no home router does that)
            self.run_in(nat, "iptables", "-A", "INPUT", "-i", "wan", "-m", "conntrack",
                        "--ctstate", "NEW", "-j", "DROP")
            self.run_in(home, "ip", "addr", "add", f"{lan}.2/24", "dev", "eth0")
            self.run_in(home, "ip", "link", "set", "eth0", "up")
            self.run_in(home, "ip", "route", "add", "default", "via", f"{lan}.1")

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.procs.clear()
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self.made.clear()
        shutil.rmtree(self.dir, ignore_errors=True)

    def leftovers(self) -> list[str]:
        """Namespaces of this lab still there (none after close)."""
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        names = {line.split()[0] for line in listed.splitlines() if line.split()}
        return [n for n in self.ns.values() if n in names]

    # -- processes -----------------------------------------------------------------

    def spawn(self, ns: str, argv: list[str], log: str, ready: str | None = None,
              timeout: float = 20.0) -> subprocess.Popen[str]:
        """Start ``argv`` in namespace ``ns`` (its output in the lab's ``log`` file); with
        ``ready``, wait until that text is in the log."""
        out = open(self.dir / log, "w")  # noqa: SIM115 -- the process holds it
        proc = subprocess.Popen(["ip", "netns", "exec", self.ns[ns], *argv], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        out.close()
        self.procs.append(proc)
        if ready is not None:
            self.wait_log(log, ready, timeout, proc)
        return proc

    def wait_log(self, log: str, text: str, timeout: float,
                 proc: subprocess.Popen[str] | None = None) -> None:
        deadline = time.monotonic() + timeout
        path = self.dir / log
        while text not in (path.read_text(errors="replace") if path.exists() else ""):
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"{log}: the process ended: {path.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{log}: no {text!r} within {timeout} s: "
                                   f"{path.read_text()[-2000:] if path.exists() else ''}")
            time.sleep(0.1)

    def start_servers(self, site: Path) -> None:
        """The public network's servers: the site, the tracker, coturn (STUN and TURN); and
        in each home the forwarder that shows the site and the tracker at 127.0.0.1."""
        py = sys.executable
        self.spawn("pub", [py, "-c", (
            "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path;"
            "from tools import site;"
            "s = site.make_server(Path(sys.argv[2]), int(sys.argv[3]), host=sys.argv[4], "
            "prefix='/jabberwocky/'); print('ready', flush=True); s.serve_forever()"),
            str(ROOT), str(site), str(SITE_PORT), PUBLIC], "site.log", "ready")
        self.spawn("pub", ["node", str(ROOT / "e2e" / "online_tracker.mjs"), str(TRACKER_PORT),
                           "5000", PUBLIC], "tracker.log", "ready")
        self.spawn("pub", [
            "turnserver", "-n", "--no-cli", "--no-tls", "--no-dtls",
            "--listening-ip", PUBLIC, "--listening-ip", PUBLIC2, "--relay-ip", RELAY,
            "--listening-port", str(TURN_PORT), "--min-port", "49152", "--max-port", "49400",
            "--lt-cred-mech", "--user", f"{self.turn_user}:{self.turn_password}",
            "--realm", REALM, "--fingerprint", "--no-multicast-peers",
            "--pidfile", str(self.dir / "turn.pid"), "--log-file", str(self.dir / "turn-file.log"),
            "--simple-log", "--verbose"], "turn.log")
        forward = str(ROOT / "e2e" / "nat_forward.py")
        for home in HOMES:
            self.spawn(home, [py, forward, f"{SITE_PORT}={PUBLIC}:{SITE_PORT}",
                              f"{TRACKER_PORT}={PUBLIC}:{TRACKER_PORT}"],
                       f"fwd-{home}.log", "ready")
        self.wait_turn()

    def wait_turn(self, timeout: float = 15.0) -> None:
        """Until coturn answers on its port (its log says it listens)."""
        deadline = time.monotonic() + timeout
        while True:
            text = "".join(p.read_text(errors="replace") for p in self.dir.glob("turn*.log"))
            if "listener opened on" in text or "Total General servers" in text:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"coturn did not start: {text[-2000:]}")
            time.sleep(0.1)

    def conntrack(self, ns: str) -> str:
        """The NAT's UDP connections (from /proc: no conntrack tool needed)."""
        path = Path("/proc/net/nf_conntrack")
        done = subprocess.run(["ip", "netns", "exec", self.ns[ns], "cat", str(path)],
                              capture_output=True, text=True)
        return "\n".join(line for line in done.stdout.splitlines() if " udp " in f" {line} ")

    def turn_log(self) -> str:
        return "".join(p.read_text(errors="replace") for p in sorted(self.dir.glob("turn*.log")))

    # -- the browsers --------------------------------------------------------------

    def browser_wrapper(self, home: str) -> str:
        """An executable that runs Chromium in ``home``'s namespace (Playwright's
        ``executable_path``)."""
        chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
        path = self.dir / f"chromium-{home}"
        path.write_text(f'#!/bin/sh\nexec ip netns exec {self.ns[home]} {chromium} "$@"\n')
        path.chmod(0o755)
        return str(path)

    @property
    def site_url(self) -> str:
        return f"http://127.0.0.1:{SITE_PORT}/jabberwocky/"

    @property
    def tracker_url(self) -> str:
        return f"ws://127.0.0.1:{TRACKER_PORT}"

    def stun(self) -> list[dict[str, str]]:
        """Two STUN servers (coturn at two addresses): a symmetric NAT shows two ports."""
        return [{"urls": f"stun:{PUBLIC}:{TURN_PORT}"}, {"urls": f"stun:{PUBLIC2}:{TURN_PORT}"}]

    def turn(self, password: str | None = None) -> list[dict[str, str]]:
        return [{"urls": f"turn:{PUBLIC}:{TURN_PORT}", "username": self.turn_user,
                 "credential": self.turn_password if password is None else password}]
