// Fixture of the layering check: perfmodel_fixture_a declares no dependency, yet reads perfmodel_fixture_b's headers.
#include "perfmodel/b/b.hpp"
#include "b/private.hpp"
int a() { return b() + private_b(); }
