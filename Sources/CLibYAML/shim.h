#ifndef FLOWRUN_CLIBYAML_SHIM_H
#define FLOWRUN_CLIBYAML_SHIM_H
#include <yaml.h>
#endif
