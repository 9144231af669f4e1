# Present so pytest roots here; the workspace's own conftest/pytest.ini files are never read.
