print("webimage")
