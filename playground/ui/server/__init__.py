"""The server under the page: HTTP middleware (headers, kept responses, link size, counted message
streams), the fair queue, the lean session state and Gradio's cheaper introspection, memory given
back, ended sessions forgotten, and the byte-bounded map the process's shared caches keep their
entries in."""
