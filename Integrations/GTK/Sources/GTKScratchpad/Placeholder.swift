import CWebKitGTK
