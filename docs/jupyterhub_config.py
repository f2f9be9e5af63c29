# moneynb on a JupyterHub: the class's games live behind the moneynb service (issue 35).
#
# Copy these lines into your jupyterhub_config.py and change the four values marked CHANGE.
# The test tests/test_hub.py starts a real JupyterHub with this very file (it only adds
# free ports, a test database and a DummyAuthenticator on top), so what you read is tested.
# docs/classroom.md explains each line and what a student can and cannot do.
import os
import sys

c = get_config()  # noqa: F821 - given by JupyterHub when it reads this file

# CHANGE: where the class's games are stored. Only the service ever sees this value: keep it
# out of c.Spawner.environment, and let no student read this file or the service's process
# (students must run as their own system users, or in containers: docs/classroom.md).
MONEYNB_DATABASE = os.environ.get(
    "MONEYNB_DATABASE", "postgresql://moneynb:CHANGE-ME@127.0.0.1:5432/moneynb"
)
# CHANGE: the teachers (hub user names), and/or a hub group whose members are teachers.
MONEYNB_TEACHERS = "mrs_lee"
MONEYNB_TEACHER_GROUP = "teachers"
# CHANGE if the port is taken: where the service listens (on the hub's machine).
MONEYNB_SERVICE_URL = "http://127.0.0.1:10101"

c.JupyterHub.services = [
    {
        "name": "moneynb",
        "url": MONEYNB_SERVICE_URL,
        "command": [sys.executable, "-m", "moneynb.service"],
        "environment": {
            "MONEYNB_SERVICE_STORE": MONEYNB_DATABASE,
            "MONEYNB_TEACHERS": MONEYNB_TEACHERS,
            "MONEYNB_TEACHER_GROUP": MONEYNB_TEACHER_GROUP,
        },
        # the service is an API for kernels, not a page in the hub's menu
        "display": False,
    }
]

c.JupyterHub.load_groups = {MONEYNB_TEACHER_GROUP: {"users": MONEYNB_TEACHERS.split()}}

# Scopes: users may reach the service; the service may read the teachers' group.
c.JupyterHub.load_roles = [
    {
        "name": "user",
        "scopes": ["self", "access:services!service=moneynb"],
    },
    {
        "name": "moneynb-service",
        "scopes": [f"read:groups!group={MONEYNB_TEACHER_GROUP}"],
        "services": ["moneynb"],
    },
]

# A user server's own token (JUPYTERHUB_API_TOKEN, what its kernels use) may reach the service.
c.Spawner.server_token_scopes = [
    "users:activity!user",
    "access:servers!server",
    "access:services!service=moneynb",
]
# Kernels use the service, never the database: MONEYNB_STORE=hub and where the service is.
c.Spawner.environment = {
    "MONEYNB_STORE": "hub",
    "MONEYNB_SERVICE_URL": MONEYNB_SERVICE_URL + "/services/moneynb/",
}
