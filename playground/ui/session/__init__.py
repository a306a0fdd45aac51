"""A session's state: its Workspace, the shared models, trainings, own and Hub models."""
