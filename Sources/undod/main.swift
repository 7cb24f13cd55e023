import DBus
print("undod placeholder")
