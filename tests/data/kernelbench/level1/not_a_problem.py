# a helper module without Model/get_inputs: import-kernelbench skips it
VALUE = 3
