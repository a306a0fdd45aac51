"""A session's state: its Workspace, the shared models' examples, trainings, the model the browser keeps."""
