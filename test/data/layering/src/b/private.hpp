// Fixture of the layering check: perfmodel_fixture_b's private header.
#pragma once
inline int private_b() { return 3; }
