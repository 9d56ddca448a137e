{ city: "Oslo" } "city" record-get if-some say else "?" say then
{ name: "Ada", age: 36 } 37 "age" record-set s" name" record-get drop
