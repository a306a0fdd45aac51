"""httpx's transport on asyncio's own streams, for the load generator.

httpx's default transport reaches the network through anyio, which opens a cancel scope (and asks
which async library runs, and which task) around every read and write: at a class of 100 that was
~15% of the generator's CPU. The same connection pool on asyncio's streams costs less. A read or
write has no timeout of its own here: the generator bounds each call as a whole (load.CALL_LIMIT_S);
connecting keeps its timeout.
"""
from __future__ import annotations

import asyncio
import socket
from typing import Any, Iterable

import httpcore
import httpx
from httpcore._utils import is_socket_readable


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One TCP connection as asyncio's reader and writer."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            return await self.reader.read(max_bytes)
        except OSError as error:
            raise httpcore.ReadError(str(error)) from error

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            self.writer.write(buffer)
            await self.writer.drain()
        except OSError as error:
            raise httpcore.WriteError(str(error)) from error

    async def aclose(self) -> None:
        self.writer.close()

    def get_extra_info(self, info: str) -> Any:
        """What httpcore asks of a connection; "is_readable" (an idle connection the server has
        closed, or sent something to) tells the pool not to reuse it."""
        raw: socket.socket | None = self.writer.get_extra_info("socket")
        if info == "is_readable":
            return self.reader.at_eof() or self.writer.is_closing() or is_socket_readable(raw)
        if info == "socket":
            return raw
        if info == "client_addr":
            return self.writer.get_extra_info("sockname")
        if info == "server_addr":
            return self.writer.get_extra_info("peername")
        return None


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend for plain TCP on asyncio."""

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable | None = None) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    host, port, local_addr=(local_address, 0) if local_address else None)
        except TimeoutError as error:
            raise httpcore.ConnectTimeout(f"no connection to {host}:{port} within {timeout} s") from error
        except OSError as error:
            raise httpcore.ConnectError(str(error)) from error
        for option in socket_options or ():
            writer.get_extra_info("socket").setsockopt(*option)
        return AsyncioStream(reader, writer)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class AsyncioTransport(httpx.AsyncHTTPTransport):
    """httpx.AsyncHTTPTransport whose connection pool (httpcore's, with `limits`) runs on AsyncioBackend."""

    def __init__(self, limits: httpx.Limits = httpx.Limits()):
        super().__init__(limits=limits)
        self._pool = httpcore.AsyncConnectionPool(
            max_connections=limits.max_connections, max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry, network_backend=AsyncioBackend())
