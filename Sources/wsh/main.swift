print("wsh: not built yet")
