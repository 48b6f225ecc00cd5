#!/usr/bin/env python3
"""write-anr-trace.py OUT.txt: an ANR dump whose "LongRunningMethods:" line
holds a long-running method trace, encoded as ART's TraceProfiler writes
it (runtime/trace_profile.cc: DumpLongRunningMethodBuffer and
DumpThreadMethodInfo; read by tools/trace_parser/
long_running_method_trace_parser.cc). An app whose click handler queries
a database on the main thread until the ANR; a worker decodes images.
Written here, independently of Strata's reader."""
import base64
import struct
import sys

MS = 1_000_000
T0 = 812_345 * MS


def sleb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        done = (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40)
        out.append(byte if done else byte | 0x80)
        if done:
            return bytes(out)


METHODS = [
    ("android.os.Looper", "loopOnce", "(Landroid/os/Looper;JI)Z", "Looper.java"),
    ("android.os.Handler", "dispatchMessage", "(Landroid/os/Message;)V", "Handler.java"),
    ("android.view.View", "performClick", "()Z", "View.java"),
    ("com.example.notes.MainActivity", "onSaveClicked", "(Landroid/view/View;)V", "MainActivity.kt"),
    ("com.example.notes.NoteRepository", "saveAll", "(Ljava/util/List;)V", "NoteRepository.kt"),
    ("android.database.sqlite.SQLiteDatabase", "insertWithOnConflict",
     "(Ljava/lang/String;Ljava/lang/String;Landroid/content/ContentValues;I)J", "SQLiteDatabase.java"),
    ("android.database.sqlite.SQLiteConnection", "nativeExecuteForLastInsertedRowId", "(JJI)J", "SQLiteConnection.java"),
    ("com.example.notes.NoteRepository", "rebuildIndex", "()V", "NoteRepository.kt"),
    ("java.util.concurrent.ThreadPoolExecutor", "runWorker",
     "(Ljava/util/concurrent/ThreadPoolExecutor$Worker;)V", "ThreadPoolExecutor.java"),
    ("com.example.notes.ThumbnailLoader", "decode", "(Ljava/lang/String;)Landroid/graphics/Bitmap;", "ThumbnailLoader.kt"),
    ("android.graphics.BitmapFactory", "decodeStream",
     "(Ljava/io/InputStream;)Landroid/graphics/Bitmap;", "BitmapFactory.java"),
]
BASE = 0x6F2A_4000_0000


def method(i):
    return BASE + i * 0x30


# (ms, method or None for an exit), per thread, long calls only.
MAIN = [(0, 0), (0, 1), (0, 2), (1, 3), (2, 4)]
for k in range(6):
    MAIN += [(10 + k * 420, 5), (12 + k * 420, 6), (410 + k * 420, None), (412 + k * 420, None)]
MAIN += [(2540, 7)]  # still running at the ANR
WORKER = []
for k in range(5):
    start = 40 + k * 900
    WORKER += [(start, 8), (start + 5, 9), (start + 10, 10), (start + 520, None), (start + 700, None),
               (start + 705, None)]


def block(tid, events):
    payload = bytearray()
    prev_ta = prev_m = 0
    for ms, m in events:
        ta = (T0 + ms * MS) << 1 | (m is None)
        payload += sleb(ta - prev_ta)
        prev_ta = ta
        if m is not None:
            payload += sleb(method(m) - prev_m)
            prev_m = method(m)
    return bytes([2]) + struct.pack("<I", tid) + struct.pack("<I", len(events))[:3] + \
        struct.pack("<I", len(payload)) + payload


data = block(8123, MAIN[:9]) + block(8190, WORKER[:12]) + block(8123, MAIN[9:]) + block(8190, WORKER[12:])
for i, (klass, name, sig, source) in enumerate(METHODS):
    line = f"{klass}\t{name}\t{sig}\t{source}\n".encode()
    data += bytes([1]) + struct.pack("<QH", method(i), len(line)) + line

text = f"""
----- pid 8123 at 2026-11-27 09:41:07.512731552+0000 -----
Cmd line: com.example.notes
Build fingerprint: 'google/example/example:16/BP2A.250605.031/13578246:user/release-keys'
ABI: 'arm64'
Build type: optimized
LongRunningMethods: {base64.b64encode(data).decode()}

suspend all histogram:	Sum: 1.2ms 99% C.I. 5us-220us Avg: 28us Max: 312us
DALVIK THREADS (3):
"main" prio=5 tid=1 Native
  | group="main" sCount=1 ucsCount=0 flags=1 obj=0x72a4c1f8 self=0xb400007a6c4b8c00
  | sysTid=8123 nice=-10 cgrp=top-app sched=0/0 handle=0x7b1d5f74f8
  native: #00 pc 000a2c48  /apex/com.android.runtime/lib64/bionic/libc.so (fsync+8)
  at android.database.sqlite.SQLiteConnection.nativeExecuteForLastInsertedRowId(Native method)
  at com.example.notes.NoteRepository.saveAll(NoteRepository.kt:88)

"pool-2-thread-1" prio=5 tid=17 Runnable
  | group="main" sCount=0 ucsCount=0 flags=0 obj=0x13581a30 self=0xb400007a6c5e9800
  | sysTid=8190 nice=0 cgrp=top-app sched=0/0 handle=0x79f0b0fcb0
  at com.example.notes.ThumbnailLoader.decode(ThumbnailLoader.kt:41)

----- end 8123 -----
"""
open(sys.argv[1], "w").write(text.lstrip("\n"))
