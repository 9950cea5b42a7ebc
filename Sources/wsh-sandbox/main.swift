print("wsh-sandbox: not built yet")
