#!/usr/bin/env python3
"""A lazy filesystem for the power-loss test: what a crash of the machine does to
files, on a machine that does not crash.

    lazyfs.py BACKING MOUNTPOINT [--writeback-seconds N]

Mounts BACKING at MOUNTPOINT (FUSE, in the foreground). File data written
through the mount is kept in this process's memory, as a kernel keeps it in its
page cache, and reaches BACKING only on fsync or fdatasync of that file, or,
with --writeback-seconds N, once it has been dirty for N seconds (a kernel
writes dirty pages back after about 30 s). Reads see the written data at once.
Everything else (create, mkdir, rename, unlink, permissions) goes to BACKING at
once, as a journaling filesystem commits metadata on its own: a file created
and renamed but never synced survives a power cut empty, the way
Jepsen's lazyfs leaves it.

Cutting the power: kill -9 this process (after what writes through it), then
`fusermount -u -z MOUNTPOINT`; what was not synced is gone with it. Mount again
on the same BACKING to "boot" the machine.

Closing a file (FUSE flush and release) persists nothing: close() is not a
sync. fsync of a directory is accepted and does nothing, metadata being
durable already.
"""
import argparse
import errno
import os
import sys
import threading
import time

try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's python3-fusepy
except ImportError:
    from fuse import FUSE, FuseOSError, Operations  # pip's fusepy

PAGE = 4096


class Pending:
    """The unsynced state of one file (one inode): its size as writers see it,
    the pages written since the last sync, and how much of the backing file is
    still what it looks like (a truncation since then hides the rest)."""

    def __init__(self, fd, size):
        self.fd = fd  # our own descriptor of the backing file, for syncing after it is closed
        self.size = size
        self.valid = size  # backing bytes at or past this offset read as zeros
        self.pages = {}
        self.dirty_since = time.monotonic()

    def page(self, index):
        page = self.pages.get(index)
        if page is None:
            start = index * PAGE
            page = bytearray(PAGE)
            if start < self.valid:
                data = os.pread(self.fd, min(PAGE, self.valid - start), start)
                page[:len(data)] = data
            self.pages[index] = page
        return page

    def write(self, data, offset):
        position = 0
        while position < len(data):
            at = offset + position
            index, within = divmod(at, PAGE)
            count = min(PAGE - within, len(data) - position)
            self.page(index)[within:within + count] = data[position:position + count]
            position += count
        self.size = max(self.size, offset + len(data))

    def read(self, length, offset):
        end = min(offset + length, self.size)
        out = bytearray()
        at = offset
        while at < end:
            index, within = divmod(at, PAGE)
            count = min(PAGE - within, end - at)
            page = self.pages.get(index)
            if page is not None:
                out += page[within:within + count]
            elif at < self.valid:
                data = os.pread(self.fd, min(count, self.valid - at), at)
                out += data + bytes(count - len(data))
            else:
                out += bytes(count)
            at += count
        return bytes(out)

    def truncate(self, length):
        if length < self.size:
            for index in [i for i in self.pages if i * PAGE >= length]:
                del self.pages[index]
            index, within = divmod(length, PAGE)
            if within and index in self.pages:
                self.pages[index][within:] = bytes(PAGE - within)
            self.valid = min(self.valid, length)
        self.size = length

    def sync(self):
        os.ftruncate(self.fd, self.valid)
        for index, page in sorted(self.pages.items()):
            start = index * PAGE
            if start < self.size:
                os.pwrite(self.fd, bytes(page[:min(PAGE, self.size - start)]), start)
        os.ftruncate(self.fd, self.size)


class LazyFs(Operations):

    def __init__(self, backing, writeback_seconds):
        self.backing = os.path.realpath(backing)
        self.writeback_seconds = writeback_seconds
        self.mutex = threading.RLock()
        self.pending = {}  # inode -> Pending
        self.inode_of = {}  # our file handle -> inode
        self.appending = set()  # handles opened O_APPEND: without a writeback cache the kernel leaves it to us
        if writeback_seconds > 0:
            threading.Thread(target=self.write_back, daemon=True).start()

    def real(self, path):
        return os.path.join(self.backing, path.lstrip("/"))

    # --- unsynced data -------------------------------------------------

    def state(self, fh):
        inode = self.inode_of[fh]
        state = self.pending.get(inode)
        if state is None:
            # A descriptor of our own (read-write, whatever fh is), kept until synced.
            state = Pending(os.open("/proc/self/fd/%d" % fh, os.O_RDWR), os.fstat(fh).st_size)
            self.pending[inode] = state
        return state

    def forget(self, inode):
        state = self.pending.pop(inode, None)
        if state is not None:
            os.close(state.fd)

    def sync(self, inode):
        state = self.pending.pop(inode, None)
        if state is not None:
            state.sync()
            os.close(state.fd)

    def write_back(self):
        while True:
            time.sleep(0.2)
            with self.mutex:
                old = time.monotonic() - self.writeback_seconds
                for inode in [i for i, s in self.pending.items() if s.dirty_since <= old]:
                    self.sync(inode)

    def forget_if_last_link(self, real):
        try:
            st = os.lstat(real)
        except FileNotFoundError:
            return
        if st.st_nlink <= 1:
            self.forget(st.st_ino)

    # --- files -----------------------------------------------------------

    def open(self, path, flags):
        with self.mutex:
            writable = flags & (os.O_WRONLY | os.O_RDWR)
            other = flags & ~(os.O_ACCMODE | os.O_TRUNC | os.O_APPEND | os.O_CREAT | os.O_EXCL)
            fh = os.open(self.real(path), other | (os.O_RDWR if writable else os.O_RDONLY))
            self.inode_of[fh] = os.fstat(fh).st_ino
            if flags & os.O_APPEND:
                self.appending.add(fh)
            if flags & os.O_TRUNC:
                self.state(fh).truncate(0)
            return fh

    def create(self, path, mode, fi=None):
        with self.mutex:
            fh = os.open(self.real(path), os.O_RDWR | os.O_CREAT, mode)
            inode = os.fstat(fh).st_ino
            if os.fstat(fh).st_size == 0:
                self.forget(inode)  # a recycled inode number carries nothing over
            self.inode_of[fh] = inode
            return fh

    def read(self, path, length, offset, fh):
        with self.mutex:
            state = self.pending.get(self.inode_of[fh])
            if state is None:
                return os.pread(fh, length, offset)
            return state.read(length, offset)

    def write(self, path, data, offset, fh):
        with self.mutex:
            state = self.state(fh)
            if not state.pages:
                state.dirty_since = time.monotonic()
            state.write(data, state.size if fh in self.appending else offset)
            return len(data)

    def truncate(self, path, length, fh=None):
        with self.mutex:
            own = fh is None
            if own:
                fh = os.open(self.real(path), os.O_RDWR)
                self.inode_of[fh] = os.fstat(fh).st_ino
            try:
                state = self.state(fh)
                if not state.pages:
                    state.dirty_since = time.monotonic()
                state.truncate(length)
            finally:
                if own:
                    del self.inode_of[fh]
                    os.close(fh)

    def fsync(self, path, datasync, fh):
        with self.mutex:
            self.sync(self.inode_of[fh])
            return 0

    def flush(self, path, fh):
        return 0  # close() is not a sync

    def release(self, path, fh):
        with self.mutex:
            del self.inode_of[fh]
            self.appending.discard(fh)
            os.close(fh)
            return 0

    def getattr(self, path, fh=None):
        with self.mutex:
            st = os.lstat(self.real(path))
            attributes = {key: getattr(st, key) for key in (
                "st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime", "st_mtime", "st_ctime", "st_ino")}
            state = self.pending.get(st.st_ino)
            if state is not None:
                attributes["st_size"] = state.size
            return attributes

    # --- metadata: straight to the backing directory ---------------------

    def unlink(self, path):
        with self.mutex:
            real = self.real(path)
            self.forget_if_last_link(real)
            os.unlink(real)

    def rename(self, old, new):
        with self.mutex:
            real_new = self.real(new)
            if os.path.isfile(real_new):
                self.forget_if_last_link(real_new)
            os.rename(self.real(old), real_new)

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self.real(path))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self.real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self.real(path), times)

    def access(self, path, mode):
        if not os.access(self.real(path), mode):
            raise FuseOSError(errno.EACCES)

    def readlink(self, path):
        return os.readlink(self.real(path))

    def symlink(self, target, source):
        os.symlink(source, self.real(target))

    def fsyncdir(self, path, datasync, fh):
        return 0

    def statfs(self, path):
        st = os.statvfs(self.real(path))
        return {key: getattr(st, key) for key in (
            "f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag",
            "f_frsize", "f_namemax")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backing")
    parser.add_argument("mountpoint")
    parser.add_argument("--writeback-seconds", type=float, default=0,
                        help="write dirty data back after this long (0: only on fsync)")
    arguments = parser.parse_args()
    FUSE(LazyFs(arguments.backing, arguments.writeback_seconds), arguments.mountpoint,
         foreground=True, nothreads=False, use_ino=True)


if __name__ == "__main__":
    sys.exit(main())
