// The target only re-exports system headers; SwiftPM wants one source file.
#include "CPerfSupport.h"
