"""Delivering one webhook to one subscriber URL."""
import time
import urllib.error
import urllib.request

from .retry import schedule


def deliver(url, body, delivery, opener=urllib.request.urlopen, sleep=time.sleep):
    """POST `body`; retry on errors per the schedule. Returns the number of attempts made."""
    delays = schedule(delivery)
    attempt = 0
    while True:
        attempt += 1
        try:
            req = urllib.request.Request(url, data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            with opener(req, timeout=delivery.timeout_s) as resp:
                if 200 <= resp.status < 300:
                    return attempt
        except (urllib.error.URLError, OSError):
            pass
        if attempt > len(delays):
            raise RuntimeError(f"giving up on {url} after {attempt} attempts")
        sleep(delays[attempt - 1])
