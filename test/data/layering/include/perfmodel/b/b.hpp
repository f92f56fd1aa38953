// Fixture of the layering check: perfmodel_fixture_b's public header.
#pragma once
inline int b() { return 2; }
