<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="fantasy_racing" tilewidth="64" tileheight="64" tilecount="11" columns="4">
 <image source="fantasy_racing_tiles.png" width="256" height="192"/>
 <tile id="1">
  <properties>
   <property name="line" value="start"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="line" value="finish"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="obstacle" value="barrier"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="obstacle" value="rock"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="obstacle" value="hole"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="obstacle" value="shortcut"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="item" value="clover"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="item" value="shield"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="item" value="coin"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="item" value="chest"/>
  </properties>
 </tile>
</tileset>
