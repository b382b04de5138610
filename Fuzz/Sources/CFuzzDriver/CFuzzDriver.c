// Declarations only: see include/CFuzzDriver.h.
