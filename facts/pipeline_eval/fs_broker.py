"""kombu's filesystem transport with an atomic put, for the throwaway service of eval_pipeline.

kombu 5.7 (kombu/transport/filesystem.py in the virtualenv) creates a message file, then
locks and writes it, while a consumer moves and reads files without the lock: on a busy
machine the consumer can read a file before its writer has written it, the worker dies on
the empty JSON and the message is gone. Here the file is written in a staging folder and
renamed into the queue folder, so a consumer only ever sees complete messages.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # The name kombu's consumer sorts and filters by: <ms>_<uuid>.<queue>.msg
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        staging = os.path.join(os.path.dirname(os.path.abspath(self.data_folder_out)), "staging")
        os.makedirs(staging, exist_ok=True)
        fd, temp_path = tempfile.mkstemp(dir=staging)
        with os.fdopen(fd, "wb") as temp:
            temp.write(str_to_bytes(dumps(payload)))
        os.replace(temp_path, os.path.join(self.data_folder_out, name))


class Transport(filesystem.Transport):
    Channel = Channel
