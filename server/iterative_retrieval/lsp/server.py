"""The language server: its lifecycle (initialize, configuration, workspace folders, shutdown),
the features registered, and start-up.

`create_server` builds the `RetrievalServer` (state.py) and registers the lifecycle handlers
here, the live index (sync.py) and the commands (commands.py) on it. The modules depend on
each other in one direction: server → commands, sync → state → rpc, protocol, progress.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

# languages: the index imports it on first parse; a server parses soon (a save, an open
# buffer), and that first save should not wait for the import
from .. import __version__, languages  # noqa: F401
from ..config import BY_NAME, FOLDER_SETTINGS, Settings
from . import commands, sync
from .protocol import SECTION, SETTING_NAMES, parse_config
from .rpc import QUIET_ANSWERS, QUIET_LOGGERS
from .state import RetrievalServer

log = logging.getLogger("iterative_retrieval.lsp")


def create_server() -> RetrievalServer:
    """A server with every feature registered."""
    server = RetrievalServer()
    for name in QUIET_LOGGERS:
        logging.getLogger(name).addFilter(QUIET_ANSWERS)  # once: a logger keeps no duplicate
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.INITIALIZED)(initialized)
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(did_change_folders)
    server.feature(types.SHUTDOWN)(shutdown)
    sync.register(server)
    commands.register(server)
    return server


def initialize(ls: RetrievalServer, params: types.InitializeParams) -> None:
    ls.init_config = ls.take_config(params.initialization_options, "initializationOptions") \
        if params.initialization_options is not None else {}
    try:
        ls.settings = ls.effective_settings()
    except ValueError as exc:  # cannot happen with checked values; never fail start-up
        ls.pending_or_warn(f"settings refused ({exc}); using the defaults")
        ls.init_config, ls.settings = {}, Settings()
    uris: list[str] = []
    if params.workspace_folders:
        uris = [f.uri for f in params.workspace_folders]
    elif params.root_uri:
        uris = [params.root_uri]
    elif params.root_path:
        uris = [Path(params.root_path).absolute().as_uri()]
    roots: list[Path] = []
    for uri in uris:
        p = ls.folder_path(uri)
        if p is not None and p not in roots:
            roots.append(p)
    ls.host.build(roots, ls.settings)
    if not roots:
        ls.pending_messages.append((types.MessageType.Info,
                                    "no workspace folder: open a folder to search it"))


async def initialized(ls: RetrievalServer, params: types.InitializedParams) -> None:
    ls.index_state = "indexing" if ls.host.engine else "no-workspace"
    for level, message in ls.pending_messages:
        if level == types.MessageType.Warning:
            ls.warn_user(message)
        else:
            ls.log_client(message, level)
    ls.pending_messages.clear()
    ls.log_client(f"iterative-retrieval {__version__}: roots "
                  f"{', '.join(map(str, ls.host.roots())) or '(none)'}")
    await pull_configuration(ls)
    ls.schedule_refresh()
    await _register_dynamic(ls)


async def did_change_configuration(
    ls: RetrievalServer, params: types.DidChangeConfigurationParams
) -> None:
    settings = params.settings
    pushed = isinstance(settings, dict) and (
        SECTION in settings or (settings and set(settings) <= set(SETTING_NAMES))
    )
    if pushed:
        ls.config_version += 1
        ls.client_config = ls.take_config(settings, "didChangeConfiguration")
        ls.apply_settings()
    else:  # the pull model: the notification only says "ask again"
        await pull_configuration(ls)


def did_change_folders(ls: RetrievalServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    roots = ls.host.roots()
    for f in params.event.removed or []:
        p = to_fs_path(f.uri)
        if p is not None:
            real = Path(os.path.realpath(p))
            roots = [r for r in roots if r != real]
    for f in params.event.added or []:
        added = ls.folder_path(f.uri)
        if added is not None and added not in roots:
            roots.append(added)
    ls.log_client(f"workspace folders: {', '.join(map(str, roots)) or '(none)'}")
    ls.folder_config = {r: c for r, c in ls.folder_config.items() if r in roots}
    ls.set_roots(roots)
    if params.event.added:
        ls.spawn(pull_configuration(ls))  # the new folders' own settings


def shutdown(ls: RetrievalServer, params: None) -> None:
    ls.stop_everything()


async def pull_configuration(ls: RetrievalServer) -> None:
    """Ask the client for the `iterativeRetrieval` section when it supports it."""
    caps = ls.client_capabilities.workspace
    if not (caps and caps.configuration):
        return
    version = ls.config_version = ls.config_version + 1
    roots = [r for r in ls.host.roots() if r in ls.folder_uris]
    try:
        items = await ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION)] + [
                types.ConfigurationItem(section=SECTION, scope_uri=ls.folder_uris[r])
                for r in roots]
        ))
    except Exception as exc:  # any client error: keep the settings we have
        ls.log_client(f"workspace/configuration failed: {exc}", types.MessageType.Warning)
        return
    if version != ls.config_version:
        return  # newer settings arrived while we waited: they win
    items = list(items or [])
    raw = items[0] if items else None
    ls.client_config = ls.take_config(raw, "workspace/configuration") if raw is not None else {}
    ls.folder_config = {}
    for root, own in zip(roots, items[1:], strict=False):
        values, report = parse_config(own, f"workspace/configuration of folder {root}")
        for w in report.warnings:  # the workspace's own problems were reported above
            if any(f"{SECTION}.{BY_NAME[k].wire} " in w for k in FOLDER_SETTINGS):
                ls.pending_or_warn(w)
        ls.folder_config[root] = values
    ls.apply_settings()


async def _register_dynamic(ls: RetrievalServer) -> None:
    """Watch files (and configuration) through the client when it allows dynamic registration."""
    caps = ls.client_capabilities.workspace
    regs: list[types.Registration] = []
    watched = caps and caps.did_change_watched_files
    if watched and watched.dynamic_registration:
        regs.append(types.Registration(
            id="iterative-retrieval-watch",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                types.FileSystemWatcher(glob_pattern="**/*"),
            ]),
        ))
    config = caps and caps.did_change_configuration
    if config and config.dynamic_registration:
        regs.append(types.Registration(
            id="iterative-retrieval-config",
            method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
        ))
    if not regs:
        ls.log_client("the client cannot watch files for us: the disk is scanned before "
                      "each retrieve instead")
        return
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=regs))
    except Exception as exc:  # any client error: scan on demand instead
        ls.log_client(f"client/registerCapability failed: {exc}", types.MessageType.Warning)
        return
    ls.watching_files = any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in regs)


def _parse_tcp(spec: str) -> tuple[str, int]:
    host, sep, port = spec.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--tcp expects HOST:PORT (e.g. 127.0.0.1:2087), got {spec!r}")
    return host or "127.0.0.1", int(port)


def run(tcp: str | None = None) -> int:
    """`iterative-retrieval serve`: stdio by default, TCP for debugging. Logs go to stderr."""
    level = os.environ.get("ITERATIVE_RETRIEVAL_LOG", "INFO").upper()
    logging.getLogger("iterative_retrieval").setLevel(getattr(logging, level, logging.INFO))
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=sys.stderr,
                            format="iterative-retrieval: %(levelname)s: %(message)s")
    try:
        address = _parse_tcp(tcp) if tcp else None
    except ValueError as exc:
        print(f"iterative-retrieval: error: {exc}", file=sys.stderr)
        return 2
    server = create_server()
    try:
        if address:
            log.info("listening on %s:%d", *address)
            server.over_tcp = True
            server.start_tcp(*address)
        else:
            server.start_io()
    finally:
        server.stop_everything()
        server.host.shutdown()
    return server.exit_code
